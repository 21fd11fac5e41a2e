import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * docs/security.md names, beside every promise, the tests that prove it: `file.test.ts`: "title", "title". Each
 * named file must exist under test/ (a bare name must be unique there) and hold each quoted title as a test or
 * describe title, so that a promise cannot outlive its proof.
 */

const ROOT = path.join(__dirname, '..', '..');
const TEST_ROOT = path.join(ROOT, 'test');
const doc = fs.readFileSync(path.join(ROOT, 'docs', 'security.md'), 'utf8');

function testFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return testFiles(full);
		return entry.name.endsWith('.test.ts') ? [full] : [];
	});
}

const allTestFiles = testFiles(TEST_ROOT);

function resolveTestFile(name: string): string[] {
	return allTestFiles.filter((file) =>
		name.includes('/') ? file.endsWith(`${path.sep}${name}`) : path.basename(file) === name,
	);
}

/** Every `file.test.ts` reference of the doc with the titles quoted after it, up to the next reference or cell. */
function proofs(): Array<{ file: string; titles: string[] }> {
	const found: Array<{ file: string; titles: string[] }> = [];
	const reference = /`([\w./-]+\.test\.ts)`(?::\s*((?:"[^"]+"(?:,\s*)?)+))?/g;
	for (const match of doc.matchAll(reference)) {
		const titles = [...(match[2] ?? '').matchAll(/"([^"]+)"/g)].map((title) => title[1]);
		found.push({ file: match[1], titles });
	}
	return found;
}

/** A title as the test source writes it: quoted in ' ", or ` (a template whose ${...} the doc spells out). */
function sourceHasTitle(source: string, title: string): boolean {
	const quoted = [`'${title}'`, `"${title}"`, `\`${title}\``].some((form) => source.includes(form));
	if (quoted) return true;
	// A template title: compare with each ${...} read as any text.
	for (const template of source.matchAll(/`([^`]*\$\{[^`]*)`/g)) {
		const pattern = template[1]
			.split(/\$\{[^}]*\}/)
			.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
			.join('.+');
		if (new RegExp(`^${pattern}$`).test(title)) return true;
	}
	// Titles with an apostrophe are written in double quotes or escaped in single quotes.
	return source.includes(`'${title.replace(/'/g, "\\'")}'`);
}

const references = proofs();

describe('docs/security.md names real tests for its promises', () => {
	it('names at least one test file per promise table row', () => {
		const rows = doc
			.split('\n')
			.filter((line) => line.startsWith('| ') && !line.startsWith('| Promise'));
		const promiseRows = rows.filter(
			(line) => line.split('|').length === 4 && !/^\|\s*-/.test(line),
		);
		for (const row of promiseRows) expect(row).toMatch(/\.test\.ts`|dev\/bench\/\w+\.ts`/);
	});

	it.each(references.map((reference) => [reference.file, reference]))(
		'%s exists and holds the titles quoted beside it',
		(_file, reference) => {
			const files = resolveTestFile(reference.file);
			expect(files).toHaveLength(1);
			const source = fs.readFileSync(files[0], 'utf8');
			const missing = reference.titles.filter((title) => !sourceHasTitle(source, title));
			expect(missing).toEqual([]);
		},
	);
});
