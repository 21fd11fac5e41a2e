import * as fs from 'node:fs';
import * as path from 'node:path';

import { plainText, userMessages } from './userMessages';

// docs/troubleshooting.md and the pages it splits into (docs/troubleshooting-*.md) have an entry for every message a
// user can meet: each text the source shows (userMessages.ts says which) appears there with its fixed words, so a
// new message without an entry fails here.

const DOCS = path.join(__dirname, '..', '..', 'docs');
const PAGES = fs.readdirSync(DOCS).filter((file) => /^troubleshooting(-[\w-]+)?\.md$/.test(file));

function missingEntries(pages: string): string[] {
	const text = plainText(pages);
	return [
		...new Set(
			userMessages()
				.filter((message) => !text.includes(message.text))
				.map((message) => `${message.file}:${message.line}: ${message.text}`),
		),
	];
}

describe('troubleshooting pages', () => {
	const pages = PAGES.map((file) => fs.readFileSync(path.join(DOCS, file), 'utf8')).join('\n');

	it('are docs/troubleshooting.md and the pages it links to', () => {
		expect(PAGES).toContain('troubleshooting.md');
		const index = fs.readFileSync(path.join(DOCS, 'troubleshooting.md'), 'utf8');
		for (const page of PAGES.filter((file) => file !== 'troubleshooting.md')) {
			expect(index).toContain(`](${page})`);
		}
	});

	it('finds the messages in the source (the scan still works)', () => {
		const texts = userMessages().map((message) => message.text);
		expect(texts.length).toBeGreaterThan(100);
		// One of each kind the scan collects: an error, a parameter problem, an HTTP answer, a log line, a hint.
		expect(texts).toEqual(
			expect.arrayContaining([
				'No records match the current filters',
				'must be a whole number from',
				'too many events, retry later',
				'Archive SIP Status Trigger ignores unusable secrets',
				'To get an item with found: false instead, change When Not Found under Options.',
			]),
		);
	});

	it('have an entry for every message', () => {
		expect(missingEntries(pages)).toEqual([]);
	});

	it('fail when an entry is removed', () => {
		const entry = /^\|.*`too many events, retry later`.*\|$/m;
		expect(pages).toMatch(entry);
		expect(missingEntries(pages.replace(entry, ''))).toEqual([
			expect.stringMatching(/: too many events, retry later$/),
		]);
	});
});
