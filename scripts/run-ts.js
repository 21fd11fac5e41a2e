#!/usr/bin/env node
// Runs a TypeScript entry point (emulators, demo, e2e, benchmarks) without a separate compile step:
// esbuild bundles it (dependencies stay external) into .build/ and the result is required in-process.
'use strict';
const path = require('node:path');
const esbuild = require('esbuild');

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
	console.error('usage: node scripts/run-ts.js <file.ts> [args...]');
	process.exit(2);
}
const root = path.resolve(__dirname, '..');
const outfile = path.join(root, '.build', entry.replace(/\.ts$/, '.js'));
esbuild.buildSync({
	entryPoints: [path.resolve(root, entry)],
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	packages: 'external',
	sourcemap: 'inline',
	outfile,
	logLevel: 'warning',
});
process.argv = [process.argv[0], outfile, ...args];
require(outfile);
