#!/usr/bin/env node
// Adds up the jest JSON reports of one `npm test` run into a single closing line: "N passed, N failed".
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const files = fs.existsSync(dir)
	? fs.readdirSync(dir).filter((file) => file.endsWith('.json'))
	: [];
for (const file of files) {
	const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
	passed += report.numPassedTests;
	failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
	skipped += report.numPendingTests + (report.numTodoTests ?? 0);
	console.log(
		`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
	);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
