export const REDACTED = '[redacted]';

/**
 * Servers sometimes echo the request in their error text. Before such text is shown, redactSecrets removes
 * - every `known` secret (the live access token, the password, the Basic credential) in each form it takes on the
 *   wire: as is, URL-encoded (once or twice, upper- or lower-case hex, form style), JSON-escaped (once or twice);
 * - values that look like credentials even when the secret is not known: `Bearer …`, `Basic …`, and the value of
 *   any key named like a secret (`jwtauth`, `access_token`, `accessToken`, `token`, `password`, `client_secret`,
 *   `authorization`, `apiKey`, …) written as `key=value`, `key: value`, `"key": "value"`, URL-encoded
 *   (`jwtauth%3D…`) or inside an escaped JSON string (`\"token\":\"…\"`).
 * Everything is one pass per secret form plus one hand-written scan: linear in the text, whatever it holds.
 */
export function redactSecrets(text: string, known: ReadonlyArray<string | undefined> = []): string {
	return redactCredentialShapes(replaceKnown(text, secretForms(known)));
}

/**
 * redactSecrets for text that is shown clipped to `maxLength`. Redacts before clipping (a secret cut in half would
 * no longer be recognised) and reads only a window of a long text: enough for what is shown, and never a secret cut
 * off at the window's end.
 */
export function redactAndClip(
	text: string,
	known: ReadonlyArray<string | undefined>,
	maxLength: number,
): string {
	const redacted = redactCredentialShapes(
		replaceKnown(text, secretForms(known), Math.max(4 * maxLength, maxLength + 4096)),
	);
	return redacted.length > maxLength ? `${redacted.slice(0, maxLength)}…` : redacted;
}

/** Each secret as is and in the encodings a request and an echo of it put on it (two levels deep). */
function secretForms(known: ReadonlyArray<string | undefined>): string[] {
	const forms = new Set<string>();
	for (const secret of known) {
		if (!secret) continue;
		for (const once of encodingsOf(secret)) for (const twice of encodingsOf(once)) forms.add(twice);
	}
	forms.delete('');
	return [...forms];
}

function encodingsOf(value: string): string[] {
	const uri = encodeURIComponent(value);
	return [
		value,
		uri,
		uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
		new URLSearchParams({ v: value }).toString().slice(2),
		JSON.stringify(value).slice(1, -1),
	];
}

/**
 * Replaces every occurrence of every form; overlapping occurrences become one `[redacted]`. With a `window`, only
 * the text before `window` characters plus the longest form is read, and the result ends where no occurrence can
 * have been cut off: an occurrence found is whole, and whatever starts later than the longest form before the
 * window's end is dropped.
 */
function replaceKnown(text: string, forms: string[], window = Infinity): string {
	const longest = forms.reduce((max, form) => Math.max(max, form.length), 0);
	const clipped = text.length > window + longest;
	const read = clipped ? text.slice(0, window + longest) : text;
	const spans = mergedSpans(read, forms);
	let end = clipped ? window : read.length;
	const straddling = spans.find(([start, stop]) => start < end && stop > end);
	if (straddling) end = straddling[1];
	let result = '';
	let copiedUpTo = 0;
	for (const [start, stop] of spans) {
		if (start >= end) break;
		result += `${read.slice(copiedUpTo, start)}${REDACTED}`;
		copiedUpTo = stop;
	}
	return `${result}${read.slice(copiedUpTo, end)}`;
}

/** Where the forms occur, sorted, overlapping or touching occurrences merged. */
function mergedSpans(text: string, forms: string[]): Array<[number, number]> {
	const spans: Array<[number, number]> = [];
	for (const form of forms) {
		for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length))
			spans.push([at, at + form.length]);
	}
	spans.sort((a, b) => a[0] - b[0]);
	const merged: Array<[number, number]> = [];
	for (const [start, stop] of spans) {
		const last = merged[merged.length - 1];
		if (last && start <= last[1]) last[1] = Math.max(last[1], stop);
		else merged.push([start, stop]);
	}
	return merged;
}

// ---- Credential shapes -------------------------------------------------------------------------------------

/** Key names (lower case, `_` and `-` removed) whose value is a secret when they end with one of these. */
const SECRET_KEY_ENDINGS = [
	'token',
	'jwtauth',
	'jwt',
	'password',
	'passwd',
	'secret',
	'authorization',
	'apikey',
];
const AUTH_SCHEMES = new Set(['bearer', 'basic']);

function isKeyChar(code: number): boolean {
	return (
		(code >= 48 && code <= 57) || // 0-9
		(code >= 65 && code <= 90) || // A-Z
		(code >= 97 && code <= 122) || // a-z
		code === 95 || // _
		code === 45 // -
	);
}

function isSpace(char: string): boolean {
	return (
		char === ' ' ||
		char === '\t' ||
		char === '\n' ||
		char === '\r' ||
		char === '\f' ||
		char === '\v'
	);
}

function isSecretKey(word: string): boolean {
	const key = word.toLowerCase().replace(/[_-]/g, '');
	return SECRET_KEY_ENDINGS.some((ending) => key.endsWith(ending));
}

function isHexDigit(char: string | undefined): boolean {
	return char !== undefined && /^[0-9a-fA-F]$/.test(char);
}

/** `%XX` or `%25XX` (encoded twice) at `at`, as the two hex digits in upper case, and where it ends. */
function percentEscapeAt(text: string, at: number): { hex: string; end: number } | undefined {
	if (text[at] !== '%') return undefined;
	let from = at + 1;
	if (text.startsWith('25', from) && isHexDigit(text[from + 2]) && isHexDigit(text[from + 3]))
		from += 2;
	if (!isHexDigit(text[from]) || !isHexDigit(text[from + 1])) return undefined;
	return { hex: text.slice(from, from + 2).toUpperCase(), end: from + 2 };
}

/** Where an unquoted value ends: white space, a quote, a separator of fields or parameters, or their escapes. */
const VALUE_END_CHARS = new Set([
	' ',
	'\t',
	'\n',
	'\r',
	'"',
	"'",
	'&',
	',',
	';',
	'}',
	']',
	')',
	'<',
	'>',
	'\\',
]);
const VALUE_END_ESCAPES = new Set([
	'20',
	'22',
	'26',
	'27',
	'2C',
	'3B',
	'7D',
	'5D',
	'29',
	'3C',
	'3E',
	'5C',
]);

function unquotedValueEnd(text: string, from: number): number {
	let at = from;
	while (at < text.length) {
		const char = text[at];
		if (VALUE_END_CHARS.has(char) || isSpace(char)) return at;
		if (char === '%') {
			const escape = percentEscapeAt(text, at);
			if (escape && VALUE_END_ESCAPES.has(escape.hex)) return at;
		}
		at++;
	}
	return at;
}

/** A quote at `at`: `"`, `'`, `"` after backslashes (JSON inside JSON), or `%22`; its length and kind. */
function quoteAt(
	text: string,
	at: number,
): { length: number; backslashes: number; kind: string } | undefined {
	let backslashes = 0;
	while (text[at + backslashes] === '\\' && backslashes < 8) backslashes++;
	const char = text[at + backslashes];
	if (char === '"' || (char === "'" && backslashes === 0))
		return { length: backslashes + 1, backslashes, kind: char };
	if (backslashes === 0) {
		const escape = percentEscapeAt(text, at);
		if (escape && (escape.hex === '22' || escape.hex === '27'))
			return { length: escape.end - at, backslashes: 0, kind: `%${escape.hex}` };
	}
	return undefined;
}

/**
 * Where a quoted value ends (the index of its closing quote), or the end of the text when it is never closed.
 * A `"` opened after k backslashes closes at a `"` after b backslashes with b mod (2k+2) = k: the escapes of the
 * levels inside it come in longer runs.
 */
function quotedValueEnd(
	text: string,
	from: number,
	quote: { backslashes: number; kind: string },
): { end: number; closeLength: number } {
	if (quote.kind === "'") {
		const end = text.indexOf("'", from);
		return end === -1 ? { end: text.length, closeLength: 0 } : { end, closeLength: 1 };
	}
	if (quote.kind.startsWith('%')) {
		for (let at = text.indexOf('%', from); at !== -1; at = text.indexOf('%', at + 1)) {
			const escape = percentEscapeAt(text, at);
			if (escape && `%${escape.hex}` === quote.kind)
				return { end: at, closeLength: escape.end - at };
		}
		return { end: text.length, closeLength: 0 };
	}
	let run = 0;
	for (let at = from; at < text.length; at++) {
		const char = text[at];
		if (char === '\\') {
			run++;
			continue;
		}
		if (char === '"' && run % (2 * quote.backslashes + 2) === quote.backslashes)
			return { end: at - run, closeLength: run + 1 };
		run = 0;
	}
	return { end: text.length, closeLength: 0 };
}

/** After a secret key: an optional closing quote, a `:` or `=` (or their escapes), spaces; where the value begins. */
function valueStartAfterKey(text: string, keyEnd: number): number | undefined {
	let at = keyEnd;
	const closing = quoteAt(text, at);
	if (closing) at += closing.length;
	while (at < text.length && isSpace(text[at])) at++;
	if (text[at] === ':' || text[at] === '=') at++;
	else {
		const escape = percentEscapeAt(text, at);
		if (!escape || (escape.hex !== '3A' && escape.hex !== '3D')) return undefined;
		at = escape.end;
	}
	while (at < text.length && isSpace(text[at])) at++;
	return at;
}

/** After `Bearer`/`Basic`: white space, `+` or `%20`; where the credential begins. */
function credentialStartAfterScheme(text: string, schemeEnd: number): number | undefined {
	let at = schemeEnd;
	for (;;) {
		if (at < text.length && (isSpace(text[at]) || text[at] === '+')) {
			at++;
			continue;
		}
		const escape = percentEscapeAt(text, at);
		if (escape?.hex === '20') {
			at = escape.end;
			continue;
		}
		break;
	}
	return at > schemeEnd ? at : undefined;
}

/**
 * One left-to-right scan: every word is looked at once; a secret key or an auth scheme has its value replaced.
 * Each character is visited a bounded number of times, so the scan is linear in the text.
 */
function redactCredentialShapes(text: string): string {
	let result = '';
	let copiedUpTo = 0;
	let at = 0;
	const redact = (from: number, to: number) => {
		result += `${text.slice(copiedUpTo, from)}${REDACTED}`;
		copiedUpTo = to;
	};
	while (at < text.length) {
		if (!isKeyChar(text.charCodeAt(at))) {
			at++;
			continue;
		}
		let wordEnd = at;
		while (wordEnd < text.length && isKeyChar(text.charCodeAt(wordEnd))) wordEnd++;
		const word = text.slice(at, wordEnd);
		at = wordEnd;
		if (AUTH_SCHEMES.has(word.toLowerCase())) {
			const start = credentialStartAfterScheme(text, wordEnd);
			if (start === undefined) continue;
			if (text.startsWith(REDACTED, start)) {
				at = start + REDACTED.length;
				continue;
			}
			const end = unquotedValueEnd(text, start);
			if (end > start) {
				redact(start, end);
				at = end;
			}
			continue;
		}
		if (!isSecretKey(word)) continue;
		const start = valueStartAfterKey(text, wordEnd);
		if (start === undefined) continue;
		// A known secret replaced already: nothing more to take (its `]` would otherwise end the value).
		if (text.startsWith(REDACTED, start)) {
			at = start + REDACTED.length;
			continue;
		}
		const quote = quoteAt(text, start);
		if (quote) {
			const valueStart = start + quote.length;
			const { end, closeLength } = quotedValueEnd(text, valueStart, quote);
			if (end > valueStart) redact(valueStart, end);
			at = end + closeLength;
			continue;
		}
		// `Authorization: Bearer x`: the scheme stays readable, its credential goes when the scan reaches it.
		const schemeEnd = scanWord(text, start);
		if (AUTH_SCHEMES.has(text.slice(start, schemeEnd).toLowerCase())) continue;
		const end = unquotedValueEnd(text, start);
		if (end > start) {
			redact(start, end);
			at = end;
		}
	}
	return copiedUpTo === 0 ? text : `${result}${text.slice(copiedUpTo)}`;
}

function scanWord(text: string, from: number): number {
	let at = from;
	while (at < text.length && isKeyChar(text.charCodeAt(at)) && at - from < 16) at++;
	return at;
}

/**
 * A URL (or what was meant to be one) as it may be shown in a message: a user name or password written into it
 * becomes "…", so the reader still sees that one was there. Anchored and without nested repetition: linear time.
 */
export function withoutUserinfo(url: string): string {
	return url.replace(/^(\s*[a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1…@');
}
