#!/usr/bin/env node
// Prints what `npm pack` would publish (needs `npm run build` first) and fails when the package outgrows its targets
// or when graphql is bundled more than once.
//
//   node scripts/package-size.js [package dir]      (default: this repo)
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PACKED_LIMIT_BYTES = 200 * 1000;
const UNPACKED_LIMIT_BYTES = 1000 * 1000;
const SHARED_GRAPHQL = 'dist/vendor/graphql.js';
// Texts only graphql's own code holds: the build strips esbuild's per-file comments (minifyWhitespace) but keeps
// string literals. The first is graphql's name check (in every schema and document), the second its parser's errors.
const GRAPHQL_SOURCE_MARKERS = ['Names must only contain [_a-zA-Z0-9] but', 'Syntax Error: '];

const packageDir = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));

function packReport() {
	// --ignore-scripts: report the dist/ that is there rather than building it again (prepack).
	const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: packageDir,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	return JSON.parse(output)[0];
}

function kilobytes(bytes) {
	return `${(bytes / 1000).toFixed(1)} KB`;
}

/** The published .js files that carry graphql's own code. */
function filesBundlingGraphql(files) {
	return files
		.map((file) => file.path)
		.filter((file) => file.endsWith('.js'))
		.filter((file) =>
			GRAPHQL_SOURCE_MARKERS.some((marker) =>
				fs.readFileSync(path.join(packageDir, file), 'utf8').includes(marker),
			),
		);
}

function main() {
	const report = packReport();
	if (!report.files.some((file) => file.path.startsWith('dist/'))) {
		console.error('package-size: nothing under dist/ would be published: run npm run build first');
		process.exit(1);
	}
	const problems = [];
	console.log(`package ${report.name}@${report.version}: ${report.entryCount} files`);
	console.log(`  packed   ${kilobytes(report.size)} (target <= ${kilobytes(PACKED_LIMIT_BYTES)})`);
	console.log(
		`  unpacked ${kilobytes(report.unpackedSize)} (target <= ${kilobytes(UNPACKED_LIMIT_BYTES)})`,
	);
	for (const file of [...report.files].sort((a, b) => b.size - a.size).slice(0, 5)) {
		console.log(`  ${kilobytes(file.size).padStart(9)}  ${file.path}`);
	}
	if (report.size > PACKED_LIMIT_BYTES)
		problems.push(`packed size ${kilobytes(report.size)} is over the target`);
	if (report.unpackedSize > UNPACKED_LIMIT_BYTES) {
		problems.push(`unpacked size ${kilobytes(report.unpackedSize)} is over the target`);
	}
	const graphqlCopies = filesBundlingGraphql(report.files);
	console.log(`  graphql bundled in: ${graphqlCopies.join(', ') || 'no file'}`);
	if (graphqlCopies.length !== 1 || graphqlCopies[0] !== SHARED_GRAPHQL) {
		problems.push(
			`graphql must be bundled once, in ${SHARED_GRAPHQL}, not in: ${graphqlCopies.join(', ') || 'no file'}`,
		);
	}
	for (const problem of problems) console.error(`package-size: ${problem}`);
	process.exit(problems.length > 0 ? 1 : 0);
}

main();
