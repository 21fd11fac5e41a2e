import { REDACTED, redactAndClip, redactSecrets } from '../../../nodes/shared/http/redact';

/**
 * A known secret echoed in the forms a security review found leaking: letter case changed, base64-encoded, `\/`,
 * `\uXXXX`, HTML entities, split over two lines, cut short. Each must come out as one `[redacted]`.
 */

/** ASCII with the characters JSON, HTML and URL encodings change. */
const TOKEN = `Ab3/Cd+Ef=Gh&Ij<Kl>Mn"Op'Qr`;
/** A password whose base64 encoding holds `+` and `/`, so the two alphabets differ. */
const PASSWORD = 'p>?w~rd?>~Secret1';

/** Each character as `\uXXXX`, in lower- or upper-case hex. */
function unicodeEscaped(text: string, hexCase: 'lower' | 'upper' = 'lower'): string {
	return [...text]
		.map((char) => {
			const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
			return `\\u${hexCase === 'upper' ? hex.toUpperCase() : hex}`;
		})
		.join('');
}

const redactedIn = (shown: string, known: string[] = [TOKEN]) =>
	redactSecrets(`the server says: ${shown} is wrong`, known);
const EXPECTED = `the server says: ${REDACTED} is wrong`;

describe('a known secret with its letter case changed', () => {
	const swapped = [...TOKEN]
		.map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()))
		.join('');
	it.each([
		['upper case', TOKEN.toUpperCase()],
		['lower case', TOKEN.toLowerCase()],
		['every letter swapped', swapped],
		['URL-encoded, upper case', encodeURIComponent(TOKEN).toUpperCase()],
	])('%s', (_form, shown) => {
		expect(redactedIn(shown)).toBe(EXPECTED);
	});
});

describe('a known secret base64-encoded', () => {
	const standard = Buffer.from(PASSWORD).toString('base64');
	const urlSafe = Buffer.from(PASSWORD).toString('base64url');

	it('the test password has `+` and `/` in its encoding', () => {
		expect(standard).toMatch(/\+.*\/|\/.*\+/);
		expect(urlSafe).not.toBe(standard.replace(/=+$/, ''));
	});

	it.each([
		['standard, padded', standard],
		['standard, not padded', standard.replace(/=+$/, '')],
		['URL-safe, padded', `${urlSafe}=`],
		['URL-safe, not padded', urlSafe],
		['standard, URL-encoded', encodeURIComponent(standard)],
	])('whole: %s', (_form, shown) => {
		expect(redactedIn(shown, [PASSWORD])).toBe(EXPECTED);
	});

	/**
	 * Inside base64(user:password…) only characters that also depend on the user name or on what follows may stay:
	 * the encoding of the bytes before the password (rounded up) and of its last partial group.
	 */
	it.each([
		['ab', ''],
		['abc', ''],
		['abcd', ''],
		['ab', ':more'],
		['abc', ':more'],
		['abcd', ':more'],
	])('inside base64("%s:" + password + "%s"), both alphabets', (user, after) => {
		const bytesBefore = user.length + 1;
		const mayStayBefore = Math.ceil((8 * bytesBefore) / 6);
		const secretUntil = Math.floor((8 * (bytesBefore + PASSWORD.length)) / 6);
		for (const alphabet of ['base64', 'base64url'] as const) {
			const encoded = Buffer.from(`${user}:${PASSWORD}${after}`).toString(alphabet);
			const [, before, rest] =
				/^auth ([^ ]*)\[redacted\]([^ ]*) end$/.exec(
					redactSecrets(`auth ${encoded} end`, [PASSWORD]),
				) ?? [];
			expect(before?.length).toBeLessThanOrEqual(mayStayBefore);
			expect(encoded.startsWith(before)).toBe(true);
			expect(rest?.length).toBeLessThanOrEqual(encoded.length - secretUntil);
			expect(encoded.endsWith(rest)).toBe(true);
		}
	});
});

describe('a known secret JSON-escaped as PHP writes it', () => {
	const json = JSON.stringify(TOKEN).slice(1, -1);
	it.each([
		['`/` as `\\/`', json.replace(/\//g, '\\/')],
		[
			'`/` as `\\/`, `<>&\'"` as \\u escapes (JSON_HEX_*)',
			json
				.replace(/\//g, '\\/')
				.replace(/\\"/g, '\\u0022')
				.replace(/[<>&']/g, (char) => unicodeEscaped(char, 'upper')),
		],
	])('%s', (_form, shown) => {
		expect(redactedIn(shown)).toBe(EXPECTED);
	});

	it('in a JSON body', () => {
		expect(
			redactSecrets('{"detail":"no access for abc\\/def\\/1234\\/xyz"}', ['abc/def/1234/xyz']),
		).toBe(`{"detail":"no access for ${REDACTED}"}`);
	});
});

describe('a known secret with \\uXXXX escapes', () => {
	const json = JSON.stringify(TOKEN).slice(1, -1);
	it.each([
		['every character, lower-case hex', unicodeEscaped(TOKEN)],
		['every character, upper-case hex', unicodeEscaped(TOKEN, 'upper')],
		[
			'every other character, inside a JSON string',
			[...TOKEN]
				.map((char, index) =>
					index % 2 ? unicodeEscaped(char) : JSON.stringify(char).slice(1, -1),
				)
				.join(''),
		],
		['only the first character', `${unicodeEscaped(TOKEN[0], 'upper')}${json.slice(1)}`],
	])('%s', (_form, shown) => {
		expect(redactedIn(shown)).toBe(EXPECTED);
	});
});

describe('a known secret with HTML entities', () => {
	it.each([
		['/', '&#47;'],
		['/', '&#x2F;'],
		['/', '&#x2f;'],
		['/', '&sol;'],
		['&', '&amp;'],
		['<', '&lt;'],
		['>', '&gt;'],
		['"', '&quot;'],
		["'", '&apos;'],
		["'", '&#39;'],
		['+', '&plus;'],
		['=', '&equals;'],
	])('%s as %s', (char, entity) => {
		// Shorter than 12 characters: only a whole match counts, so the entity must be decoded.
		const secret = `Xy7${char}Qz9${char}Wv`;
		expect(redactedIn(secret.split(char).join(entity), [secret])).toBe(EXPECTED);
	});

	it('every special character of a token as an entity, in an HTML page', () => {
		const html = TOKEN.replace(/&/g, '&amp;')
			.replace(/</g, '&lt;')
			.replace(/>/g, '&gt;')
			.replace(/"/g, '&quot;')
			.replace(/'/g, '&#39;')
			.replace(/\//g, '&#x2F;');
		expect(redactSecrets(`<p>Token ${html} refused</p>`, [TOKEN])).toBe(
			`<p>Token ${REDACTED} refused</p>`,
		);
	});
});

describe('a known secret split over two lines', () => {
	const [first, rest] = [TOKEN.slice(0, 10), TOKEN.slice(10)];
	const json = JSON.stringify(TOKEN).slice(1, -1);
	it.each([
		['a raw \\n', `${first}\n${rest}`],
		['a raw \\r\\n and indentation', `${first}\r\n        ${rest}`],
		['a raw \\n and tabs', `${first}\n\t\t${rest}`],
		['an escaped \\n', `${json.slice(0, 10)}\\n${json.slice(10)}`],
		['an escaped \\r\\n and indentation', `${json.slice(0, 10)}\\r\\n    ${json.slice(10)}`],
		[
			'base64 wrapped',
			Buffer.from(PASSWORD)
				.toString('base64')
				.replace(/^(.{8})/, '$1\n  '),
		],
	])('%s', (_form, shown) => {
		expect(redactedIn(shown, [TOKEN, PASSWORD])).toBe(EXPECTED);
	});
});

describe('a known secret cut short', () => {
	it.each([
		['after 20 characters and "..."', `${TOKEN.slice(0, 20)}...`, `${REDACTED}...`],
		['after 12 characters and "…"', `${TOKEN.slice(0, 12)}…`, `${REDACTED}…`],
		['cut short and upper case', TOKEN.slice(0, 15).toUpperCase(), REDACTED],
		['URL-encoded, cut short', encodeURIComponent(TOKEN).slice(0, 16), REDACTED],
		[
			'the password in base64, cut short',
			Buffer.from(PASSWORD).toString('base64').slice(0, 14),
			REDACTED,
		],
	])('%s', (_form, shown, replaced) => {
		expect(redactedIn(shown, [TOKEN, PASSWORD])).toBe(`the server says: ${replaced} is wrong`);
	});

	it('fewer than 12 characters of a secret, and part of a secret shorter than 12, are left alone', () => {
		expect(redactedIn(TOKEN.slice(0, 11), [TOKEN])).toBe(
			`the server says: ${TOKEN.slice(0, 11)} is wrong`,
		);
		expect(redactedIn('hunter2 and hunter', ['hunter2?x'])).toBe(
			'the server says: hunter2 and hunter is wrong',
		);
	});
});

describe('redactAndClip with an encoded secret where the window ends', () => {
	it('an escaped secret begun before the end of the window read is redacted whole, wherever that end falls', () => {
		const escaped = unicodeEscaped(TOKEN);
		// Secrets back to back shrink to one [redacted], so what is shown reaches the end of the window read.
		for (let start = 4000; start < 4400; start++) {
			const lead = escaped.repeat(Math.floor(start / escaped.length));
			const text = `${lead}${','.repeat(start - lead.length)}${escaped}${'-'.repeat(10_000)}`;
			const shown = redactAndClip(text, [TOKEN], 120);
			// Only [redacted] (perhaps cut by the clip), commas and dashes: no piece of an escape.
			expect(shown.replace(/\[redacted\]/g, '')).toMatch(/^[,-]*(\[[a-z]*)?…?$/);
		}
	});
});
