#!/usr/bin/env node
// Release guard (run by .github/workflows/release.yml before anything is built): the pushed tag must be
// v<package.json version>, and CHANGELOG.md must have a section for that version.
//
//   node scripts/check-release.js <tag>      e.g. v0.1.0
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');

function problemsFor(tag) {
	const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const problems = [];
	if (tag !== `v${version}`)
		problems.push(
			`tag "${tag}" does not match package.json version ${version} (expected v${version})`,
		);
	const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
	const heading = new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\]`, 'm');
	if (!heading.test(changelog)) problems.push(`CHANGELOG.md has no "## [${version}]" section`);
	return problems;
}

const tag = process.argv[2];
if (!tag) {
	console.error('usage: node scripts/check-release.js <tag>');
	process.exit(2);
}
const problems = problemsFor(tag);
for (const problem of problems) console.error(`check-release: ${problem}`);
if (problems.length === 0)
	console.log(`check-release: ${tag} matches package.json and CHANGELOG.md`);
process.exit(problems.length > 0 ? 1 : 0);
