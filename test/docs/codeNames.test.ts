import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Maintainers' notes and docs name files and functions in backticks (`webhook.ts` `receiveDelivery`). A refactor
// that renames or removes one leaves the text pointing at nothing; this test finds such names. A file name must be
// a file of the repository (by its path, or by its name when written bare); a name written after a file on the same
// line, like a function, must occur in one of the files named before it on that line. Built files (dist/, .build/)
// and n8n's own files are not the repository's.

const ROOT = path.join(__dirname, '..', '..');
const TRACKED = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
	.split('\n')
	.filter((file) => file && fs.existsSync(path.join(ROOT, file)));
const FILE_TOKEN = /^(?:…\/)?[\w/-][\w./-]*\.(?:ts|js|cjs|mjs|sh)$/;
const NOT_OURS = /^(?:dist\/|\.build\/)|^(?:deduplication-helper|live-webhooks)\.js$/;
const IDENTIFIER_TOKEN = /^[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*(?:\(\))?$/;

/** The tracked files a written name can mean: its path from the root, from the note's folder, or its bare name. */
export function filesNamed(token: string, noteDir: string): string[] {
	const name = token.replace(/^…\//, '');
	const exact = [name, path.posix.join(noteDir, name)].filter((each) => TRACKED.includes(each));
	if (exact.length > 0) return exact;
	return TRACKED.filter((file) => file.endsWith(`/${name}`) || file === name);
}

/** Every problem of one note: names of files that do not exist, names that their file does not hold. */
export function problemsOf(note: string, text: string): string[] {
	const noteDir = path.posix.dirname(note);
	const problems: string[] = [];
	text.split('\n').forEach((line, index) => {
		const files: string[] = [];
		for (const [, token] of line.matchAll(/`([^`\s]+)`/g)) {
			if (FILE_TOKEN.test(token) && !NOT_OURS.test(token)) {
				const named = filesNamed(token, noteDir);
				if (named.length === 0) problems.push(`${note}:${index + 1}: no file ${token}`);
				files.push(...named);
			} else if (IDENTIFIER_TOKEN.test(token) && files.length > 0) {
				const name = token.replace(/\(\)$/, '');
				const held = files.some((file) =>
					fs.readFileSync(path.join(ROOT, file), 'utf8').includes(name),
				);
				if (!held) problems.push(`${note}:${index + 1}: ${token} is not in ${files.join(' or ')}`);
			}
		}
	});
	return problems;
}

const NOTES = TRACKED.filter(
	(file) =>
		file.endsWith('.md') &&
		(file.startsWith('docs/') || /^(dev|test|nodes|scripts)\/(.+\/)?README\.md$/.test(file)),
);

describe('code names in docs and maintainers’ notes', () => {
	it('finds the notes', () => {
		expect(NOTES).toEqual(expect.arrayContaining(['dev/README.md', 'docs/security.md']));
	});

	it.each(NOTES)('%s names only files and functions that exist', (note) => {
		expect(problemsOf(note, fs.readFileSync(path.join(ROOT, note), 'utf8'))).toEqual([]);
	});

	it('fails on a removed file and on a function its file does not hold', () => {
		expect(problemsOf('dev/README.md', 'see `webhookDescription.ts`')).toEqual([
			'dev/README.md:1: no file webhookDescription.ts',
		]);
		const line = '`nodes/ArchiveSipStatusTrigger/webhook.ts` `receiveDelivery`, `noSuchHelper()`';
		expect(problemsOf('dev/README.md', line)).toEqual([
			'dev/README.md:1: noSuchHelper() is not in nodes/ArchiveSipStatusTrigger/webhook.ts',
		]);
	});
});
