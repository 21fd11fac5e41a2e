import * as fs from 'node:fs';
import * as path from 'node:path';

// docs/ holds pages a user reads to decide and to fix things, each short enough to read, and current only: no history
// of how the package got here. The maintainers' notes beside the code (dev/ and test/ READMEs) are current only too.
// Git history keeps the rest.

const ROOT = path.join(__dirname, '..', '..');
const MAX_WORDS = 3000;

function filesUnder(dir: string, wanted: (name: string) => boolean): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(file, wanted);
		return wanted(entry.name) ? [file] : [];
	});
}

const DOC_PAGES = filesUnder('docs', (name) => name.endsWith('.md'));
const MAINTAINER_NOTES = [
	...filesUnder('dev', (name) => name === 'README.md'),
	...filesUnder('test', (name) => name === 'README.md'),
];

function wordCount(markdown: string): number {
	return markdown.split(/\s+/).filter(Boolean).length;
}

/** What marks a text as history rather than the current state. */
const HISTORY: Array<[string, RegExp]> = [
	['an issue number', /\bissues?\s+#?\d+|(?<![\w&/])#\d{1,5}\b/i],
	['a commit hash', /(?<![\w./-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w-])/],
	['a commit', /\bcommits?\s+[0-9a-f]{7}|\bup to commit\b/i],
	['a work stop', /\bstop\s+\d+\b/i],
	[
		'a fix or change told as history',
		/\b(?:before|after|since|with(?:out)?) the (?:fix|change|changes)\b|\bthe fix\b|\bfixes? (?:described|below|above)\b/i,
	],
	[
		'an earlier state',
		/\bthe default (?:then|before)\b|\b(?:was|were) the default\b|\bused to\b|\bpreviously\b|\bno longer\b|\bsince then\b|\bsuperseded\b|\bkept for (?:the record|comparison)\b|\bbefore this (?:round|build|release|run)\b|\bearlier (?:runs?|builds?|figures)\b|\bprevious (?:build|run|replay record|figures)\b|\bthe old (?:default|code|client|build)\b|\bgot worse\b/i,
	],
];

function historyIn(markdown: string): string[] {
	const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
	return withoutCode.split('\n').flatMap((line, index) =>
		HISTORY.flatMap(([kind, pattern]) => {
			const match = pattern.exec(line);
			return match ? [`line ${index + 1}, ${kind}: "${match[0]}"`] : [];
		}),
	);
}

describe.each(DOC_PAGES)('%s', (file) => {
	const markdown = fs.readFileSync(path.join(ROOT, file), 'utf8');

	it(`has at most ${MAX_WORDS} words`, () => {
		expect(wordCount(markdown)).toBeLessThanOrEqual(MAX_WORDS);
	});

	it('is current only: no issue numbers, commit hashes or history', () => {
		expect(historyIn(markdown)).toEqual([]);
	});
});

describe.each(MAINTAINER_NOTES)('%s', (file) => {
	it('is current only: no issue numbers, commit hashes or history', () => {
		expect(historyIn(fs.readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
	});
});

describe('the checks themselves', () => {
	it('count words as the README test does', () => {
		expect(wordCount('one  two\nthree `four` [five](six.md)')).toBe(5);
	});

	it.each([
		['issue 23', 'the fix of issue 23'],
		['a hash', 'as in e253d57, the old build'],
		['a stop', 'measured at stop 38'],
		['the fix', 'the figures before the fix'],
		['an old default', 'at 4 in flight, the default then'],
		['an earlier state', 'it no longer re-reads the row'],
	])('find %s', (_kind, text) => {
		expect(historyIn(text)).not.toEqual([]);
	});

	it.each([
		'a UUID such as 3f2a9c1e-0b7d-4e11-9a51-2c0f6d7e8a90 or an ID like OR-abc1234',
		'n8n 2.40.7 and 1.123.81 with 100,000 rows at 50 ms',
		'a retry after that passes; the sender signs every retry afresh',
	])('leave current text alone: %s', (text) => {
		expect(historyIn(text)).toEqual([]);
	});
});
