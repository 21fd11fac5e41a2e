#!/usr/bin/env node
// Runs n8n's community-package scanner (@n8n/scan-community-package) on this package the way n8n does when it
// verifies a package, without the registry: the scanner's CLI downloads the published tarball and the source commit
// its provenance names, then calls analyzePackage() on each. We call the same exported function on the same two legs.
//
//   node scripts/scan.mjs <scanner install dir> <source dir> <unpacked npm pack dir>
//
// Exits 1 when either leg reports an ESLint error (the scanner's "passed: false").
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The scanner's tarball leg (analyzePackageByName): compiled JS and the published package.json. Not exported by the
// scanner, so kept here; scripts/scan.sh checks that the installed scanner still uses exactly this list.
export const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

async function main() {
	const [scannerDir, sourceDir, tarballDir] = process.argv.slice(2);
	if (!scannerDir || !sourceDir || !tarballDir) {
		console.error(
			'usage: node scripts/scan.mjs <scanner install dir> <source dir> <unpacked npm pack dir>',
		);
		process.exit(2);
	}
	const scannerModule = path.join(
		scannerDir,
		'node_modules/@n8n/scan-community-package/scanner/scanner.mjs',
	);
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(scannerModule).href);

	const legs = [
		{ name: 'source', dir: sourceDir, patterns: SOURCE_FILE_PATTERNS },
		{ name: 'tarball', dir: tarballDir, patterns: TARBALL_FILE_PATTERNS },
	];
	let failed = false;
	for (const leg of legs) {
		const result = await analyzePackage(path.resolve(leg.dir), leg.patterns);
		const verdict = result.passed ? 'passed' : `FAILED: ${result.message}`;
		console.log(`scan ${leg.name} leg (${leg.patterns.join(', ')}): ${verdict}`);
		if (result.details) console.log(result.details);
		if (!result.passed) failed = true;
	}
	process.exit(failed ? 1 : 0);
}

await main();
