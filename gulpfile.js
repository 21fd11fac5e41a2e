// Build steps after the type check (`tsc --noEmit`):
// - bundle: every node and credential entry listed in package.json "n8n" becomes one CommonJS file in dist/,
//   with the libraries it uses (graphql) bundled in, so the published package has no runtime dependencies;
//   n8n-workflow stays external: n8n provides it (peerDependency).
// - assets: icons (SVG) and codex files (*.node.json) are copied next to the bundles.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { src, dest, series } = require('gulp');
const esbuild = require('esbuild');

const root = __dirname;
const dist = path.join(root, 'dist');
const { n8n } = require('./package.json');

function clean(done) {
	fs.rmSync(dist, { recursive: true, force: true });
	done();
}

async function bundle() {
	const entries = [...n8n.credentials, ...n8n.nodes].map((file) => {
		const source = file.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		if (!fs.existsSync(path.join(root, source))) throw new Error(`Missing source for ${file}: ${source}`);
		return { in: path.join(root, source), out: file.replace(/^dist\//, '').replace(/\.js$/, '') };
	});
	await esbuild.build({
		entryPoints: entries,
		outdir: dist,
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		external: ['n8n-workflow'],
		// graphql checks for duplicate module instances only outside production.
		define: { 'process.env.NODE_ENV': '"production"' },
		legalComments: 'inline',
		logLevel: 'warning',
	});
}

function assets() {
	return src(['nodes/**/*.svg', 'nodes/**/*.node.json', 'credentials/**/*.svg'], { base: root, encoding: false }).pipe(
		dest(dist),
	);
}

exports.clean = clean;
exports.build = series(clean, bundle, assets);
exports.default = exports.build;
