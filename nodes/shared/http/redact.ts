export const REDACTED = '[redacted]';

/**
 * Servers sometimes echo the request in their error text. redactSecrets removes every `known` secret in each form it
 * takes on the wire, also cut short, and any value shaped like a credential; docs/security.md lists every form and
 * shape. Linear in the text: one pass builds the decoded view, one KMP pass per form, one scan for the shapes.
 */
export function redactSecrets(text: string, known: ReadonlyArray<string | undefined> = []): string {
	return redactCredentialShapes(replaceKnown(text, secretForms(known)));
}

/**
 * redactSecrets for text shown clipped to `maxLength`. Redacts before clipping (a secret cut in half would no longer
 * be recognised) and reads only a window of a long text: enough for what is shown, never a secret cut off at its end.
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

// ---- Known secrets -----------------------------------------------------------------------------------------

/** A secret cut short still counts from this many characters of a form of it; fewer would hit ordinary words. */
const MIN_PREFIX = 12;
/** Inside a longer base64 string a secret counts from this many characters: shorter runs of letters are common. */
const MIN_BASE64_CORE = 8;

/** A form of a secret as the decoded view reads it, and how many of its first characters an occurrence needs. */
interface SecretForm {
	text: string;
	least: number;
}

function secretForms(known: ReadonlyArray<string | undefined>): SecretForm[] {
	const leastByText = new Map<string, number>();
	for (const secret of known) {
		if (!secret) continue;
		for (const form of new Set(wireForms(secret))) {
			const text = viewOf(form).text;
			if (text === '') continue;
			const least = secret.length < MIN_PREFIX ? text.length : Math.min(MIN_PREFIX, text.length);
			leastByText.set(text, Math.min(least, leastByText.get(text) ?? least));
		}
	}
	return [...leastByText].map(([text, least]) => ({ text, least }));
}

/** The secret as a request and an echo of it carry it: encoded up to twice, and base64-encoded. */
function wireForms(secret: string): string[] {
	const forms: string[] = [];
	for (const once of encodingsOf(secret)) forms.push(...encodingsOf(once));
	for (const base64 of base64Forms(secret)) forms.push(...encodingsOf(base64));
	return forms;
}

/** As is, URL-encoded, form-encoded and JSON-escaped (the view ignores the case of `%xx` escapes). */
function encodingsOf(value: string): string[] {
	return [
		value,
		encodeURIComponent(value),
		new URLSearchParams({ v: value }).toString().slice(2),
		JSON.stringify(value).slice(1, -1),
	];
}

/**
 * The secret's base64 encoding, padded and not, and what of it shows inside a longer base64 string such as that of
 * `user:password`: for each of the three byte alignments, the characters that depend on the secret's bytes alone
 * (not the leading ones shared with the bytes before it, nor the last partial group). In both alphabets.
 */
function base64Forms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const whole = bytes.toString('base64');
	const forms = [whole, whole.replace(/=+$/, '')];
	for (let before = 0; before < 3; before++) {
		const encoded = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
		const core = encoded.slice(
			Math.ceil((8 * before) / 6),
			Math.floor((8 * (before + bytes.length)) / 6),
		);
		if (core.length >= MIN_BASE64_CORE) forms.push(core);
	}
	return forms.flatMap((form) => [form, form.replace(/\+/g, '-').replace(/\//g, '_')]);
}

/**
 * Replaces every occurrence of every form; overlapping or touching occurrences become one `[redacted]`. With a
 * `window`, only the text before `window` characters plus a margin is read: the margin holds the first `least`
 * characters of any form begun before the window's end however encoded, so such an occurrence is found (to the end
 * of what was read if it goes on), and the result ends where no occurrence can have been cut off.
 */
function replaceKnown(text: string, forms: SecretForm[], window = Infinity): string {
	const longestNeeded = forms.reduce((max, form) => Math.max(max, form.least), 0);
	const margin = longestNeeded * MAX_SOURCE_PER_VIEW_CHAR;
	const clipped = text.length > window + margin;
	const read = clipped ? text.slice(0, window + margin) : text;
	const spans = knownSpans(read, forms);
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

/** Where in the text the forms occur, sorted, overlapping or touching occurrences merged. */
function knownSpans(text: string, forms: SecretForm[]): Array<[number, number]> {
	if (forms.length === 0) return [];
	const view = viewOf(text);
	// reach[i]: the end of the longest occurrence found that starts at view character i (0: none).
	const reach = new Int32Array(view.text.length);
	for (const form of forms) markOccurrences(view.text, form, reach);
	const spans: Array<[number, number]> = [];
	let at = 0;
	while (at < reach.length) {
		if (reach[at] === 0) {
			at++;
			continue;
		}
		let until = reach[at];
		for (let inside = at + 1; inside < until; inside++) until = Math.max(until, reach[inside]);
		const start = view.starts[at];
		const stop = view.ends[until - 1];
		const last = spans[spans.length - 1];
		// Touching, or overlapping where two view characters come from one escape.
		if (last && start <= last[1]) last[1] = Math.max(last[1], stop);
		else spans.push([start, stop]);
		at = until;
	}
	return spans;
}

/**
 * Marks each occurrence of the form in the view, whole or cut short after `least` characters or more. The
 * Knuth–Morris–Pratt automaton knows at each character the longest start of the form ending there: linear in the
 * view, also for forms that repeat themselves. Where nothing is matched, indexOf skips to the next candidate.
 */
function markOccurrences(view: string, form: SecretForm, reach: Int32Array): void {
	const head = form.text.slice(0, form.least);
	if (!view.includes(head)) return;
	const fallback = fallbackOf(form.text);
	let matched = 0;
	for (let at = 0; at < view.length; at++) {
		if (matched === 0) {
			at = view.indexOf(head, at);
			if (at === -1) return;
		}
		const code = view.charCodeAt(at);
		while (matched > 0 && (matched === form.text.length || form.text.charCodeAt(matched) !== code))
			matched = fallback[matched - 1];
		if (form.text.charCodeAt(matched) === code) matched++;
		if (matched >= form.least) {
			const start = at + 1 - matched;
			reach[start] = Math.max(reach[start], at + 1);
		}
	}
}

/** fallback[i]: the length of the longest proper start of `form` that also ends `form.slice(0, i + 1)`. */
function fallbackOf(form: string): Int32Array {
	const fallback = new Int32Array(form.length);
	let matched = 0;
	for (let at = 1; at < form.length; at++) {
		while (matched > 0 && form.charCodeAt(at) !== form.charCodeAt(matched))
			matched = fallback[matched - 1];
		if (form.charCodeAt(at) === form.charCodeAt(matched)) matched++;
		fallback[at] = matched;
	}
	return fallback;
}

// ---- The decoded view ----------------------------------------------------------------------------------------

/**
 * The text as the search for known secrets reads it: `\uXXXX`, `\/` and HTML entities decoded, one line break
 * inside a value dropped with its indentation, letters in lower case. View character i comes from
 * `text.slice(starts[i], ends[i])`. `\\` stays as is, so that `\\n` or `\\u0041` (an escaped backslash) is not read
 * as an escape.
 */
interface View {
	text: string;
	starts: number[];
	ends: number[];
}

/** The longest escape the view decodes: `&#x10FFFF;`. */
const MAX_ESCAPE_LENGTH = 10;
/** Indentation dropped after a line break, at most; the bound keeps an occurrence's length in the text bounded. */
const MAX_INDENT = 32;
/** How much of the text one view character can come from, with a line break (`\r\n` escaped) before it. */
const MAX_SOURCE_PER_VIEW_CHAR = MAX_ESCAPE_LENGTH + 4 + MAX_INDENT;

function viewOf(text: string): View {
	const codes: number[] = [];
	const starts: number[] = [];
	const ends: number[] = [];
	let at = 0;
	let afterLineBreak = false;
	while (at < text.length) {
		const lineBreakEnd: number | undefined = afterLineBreak ? undefined : lineBreakEndAt(text, at);
		afterLineBreak = lineBreakEnd !== undefined;
		if (lineBreakEnd !== undefined) {
			at = lineBreakEnd;
			continue;
		}
		const escape =
			text[at] === '\\'
				? backslashEscapeAt(text, at)
				: text[at] === '&'
					? htmlEntityAt(text, at)
					: undefined;
		const chars = escape?.chars ?? text[at];
		const end = escape?.end ?? at + 1;
		for (let index = 0; index < chars.length; index++) {
			codes.push(lowerCase(chars.charCodeAt(index)));
			starts.push(at);
			ends.push(end);
		}
		at = end;
	}
	return { text: stringOf(codes), starts, ends };
}

/** `\r\n`, `\r` or `\n`, raw or JSON-escaped, and the spaces and tabs (raw or `\t`) after it: where they end. */
function lineBreakEndAt(text: string, at: number): number | undefined {
	const length = lineBreakLengthAt(text, at);
	if (length === 0) return undefined;
	let end = at + length;
	const limit = Math.min(text.length, end + MAX_INDENT);
	for (;;) {
		if (end < limit && (text[end] === ' ' || text[end] === '\t')) end++;
		else if (end + 1 < limit && text.startsWith('\\t', end)) end += 2;
		else return end;
	}
}

function lineBreakLengthAt(text: string, at: number): number {
	const char = text[at];
	if (char === '\r') return text[at + 1] === '\n' ? 2 : 1;
	if (char === '\n') return 1;
	if (char !== '\\' || (text[at + 1] !== 'r' && text[at + 1] !== 'n')) return 0;
	return text.startsWith('\\r\\n', at) ? 4 : 2;
}

function backslashEscapeAt(text: string, at: number): { chars: string; end: number } | undefined {
	const next = text[at + 1];
	if (next === '\\') return { chars: '\\\\', end: at + 2 };
	if (next === '/') return { chars: '/', end: at + 2 };
	const hex = text.slice(at + 2, at + 6);
	if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(hex))
		return { chars: String.fromCharCode(parseInt(hex, 16)), end: at + 6 };
	return undefined;
}

/** Named entities of ASCII punctuation, which URL and JSON encodings change too: name, then character. */
const HTML_ENTITIES = new Map(
	`amp& AMP& lt< LT< gt> GT> quot" QUOT" apos' sol/ bsol\\ plus+ equals= colon: semi; comma, period.
	num# percnt% quest? excl! commat@ dollar$ lowbar_ ast* Hat^ grave\` verbar| lpar( rpar) lsqb[ rsqb]
	lcub{ rcub}`
		.split(/\s+/)
		.map((entry) => [entry.slice(0, -1), entry.slice(-1)]),
);

/** `&name;`, `&#47;` or `&#x2F;` at `at`. */
function htmlEntityAt(text: string, at: number): { chars: string; end: number } | undefined {
	const semicolon = text.slice(at + 1, at + MAX_ESCAPE_LENGTH).indexOf(';');
	if (semicolon < 1) return undefined;
	const name = text.slice(at + 1, at + 1 + semicolon);
	const chars = name.startsWith('#') ? numericCharacter(name.slice(1)) : HTML_ENTITIES.get(name);
	return chars === undefined ? undefined : { chars, end: at + semicolon + 2 };
}

function numericCharacter(reference: string): string | undefined {
	const hex = reference.startsWith('x') || reference.startsWith('X');
	const digits = hex ? reference.slice(1) : reference;
	if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
	const code = parseInt(digits, hex ? 16 : 10);
	return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** Lower case where it keeps the length: ASCII and the single-unit letters of other scripts. */
function lowerCase(code: number): number {
	if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
	const lower = String.fromCharCode(code).toLowerCase();
	return lower.length === 1 ? lower.charCodeAt(0) : code;
}

function stringOf(codes: number[]): string {
	let text = '';
	for (let from = 0; from < codes.length; from += 8192)
		text += String.fromCharCode(...codes.slice(from, from + 8192));
	return text;
}

// ---- Credential shapes -------------------------------------------------------------------------------------

/** Key names (lower case, `_` and `-` removed) whose value is a secret when they end with one of these. */
const SECRET_KEY_ENDINGS = 'token jwtauth jwt password passwd secret authorization apikey'.split(
	' ',
);
const AUTH_SCHEMES = new Set(['bearer', 'basic']);
/** The shortest JWT taken for one: `eyJ` and 7 more characters, a payload of 4 (an unsigned JWT has no signature). */
const MIN_JWT_HEADER = 10;
const MIN_JWT_PAYLOAD = 4;
/** After a secret key and white space alone, a value counts from this many characters, with a digit and a letter. */
const MIN_BARE_CREDENTIAL = 20;
/** Besides letters and digits, the characters of a bare credential (base64, base64url, JWT, hex, opaque tokens). */
const CREDENTIAL_PUNCTUATION = new Set('._~+/=-');
/** How far back a namespace prefix (`wsse:` in `<wsse:Password>`) is looked for. */
const MAX_NAMESPACE_PREFIX = 32;
const SPACES = new Set(' \t\n\r\f\v');
/** Where an unquoted value ends: white space, a quote, a separator of fields or parameters. */
const VALUE_END_CHARS = new Set(' \t\n\r"\'&,;}])<>\\');
/** The `%XX` escapes that end an unquoted value too: those of VALUE_END_CHARS but the tab and line breaks. */
const VALUE_END_ESCAPES = new Set(
	[...VALUE_END_CHARS]
		.filter((char) => char >= ' ')
		.map((char) => char.charCodeAt(0).toString(16).toUpperCase()),
);

function isDigit(code: number): boolean {
	return code >= 48 && code <= 57;
}

function isLetter(code: number): boolean {
	return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Letters, digits, `_` and `-`: the characters of key names, and the base64url alphabet of JWTs. */
function isKeyChar(code: number): boolean {
	return isDigit(code) || isLetter(code) || code === 95 || code === 45;
}

function keyCharsEnd(text: string, from: number): number {
	let at = from;
	while (at < text.length && isKeyChar(text.charCodeAt(at))) at++;
	return at;
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

function unquotedValueEnd(text: string, from: number): number {
	let at = from;
	while (at < text.length) {
		const char = text[at];
		if (VALUE_END_CHARS.has(char) || SPACES.has(char)) return at;
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
	while (at < text.length && SPACES.has(text[at])) at++;
	if (text[at] === ':' || text[at] === '=') at++;
	else {
		const escape = percentEscapeAt(text, at);
		if (!escape || (escape.hex !== '3A' && escape.hex !== '3D')) return undefined;
		at = escape.end;
	}
	while (at < text.length && SPACES.has(text[at])) at++;
	return at;
}

/** After `Bearer`/`Basic`: white space, `+` or `%20`; where the credential begins. */
function credentialStartAfterScheme(text: string, schemeEnd: number): number | undefined {
	let at = schemeEnd;
	for (;;) {
		if (at < text.length && (SPACES.has(text[at]) || text[at] === '+')) {
			at++;
			continue;
		}
		const escape = percentEscapeAt(text, at);
		if (escape?.hex !== '20') break;
		at = escape.end;
	}
	return at > schemeEnd ? at : undefined;
}

/** What the scan does after a word: replace `from`–`to` (nothing when they are equal) and go on at `next`. */
interface Finding {
	from: number;
	to: number;
	next: number;
}

function skipTo(next: number): Finding {
	return { from: next, to: next, next };
}

/** `from`–`to` replaced when it holds something, else the scan goes on at `otherwise`. */
function replacement(from: number, to: number, otherwise: number): Finding {
	return to > from ? { from, to, next: to } : skipTo(otherwise);
}

/** A known secret replaced already: nothing more to take (its `]` would otherwise end the value). */
function pastRedacted(text: string, start: number): Finding | undefined {
	return text.startsWith(REDACTED, start) ? skipTo(start + REDACTED.length) : undefined;
}

/**
 * One left-to-right scan: every word is looked at once; a JWT, and the value after a secret key or an auth scheme,
 * are replaced. Each character is visited a bounded number of times, so the scan is linear in the text.
 */
function redactCredentialShapes(text: string): string {
	let result = '';
	let copiedUpTo = 0;
	let at = 0;
	while (at < text.length) {
		if (!isKeyChar(text.charCodeAt(at))) {
			at++;
			continue;
		}
		const wordEnd = keyCharsEnd(text, at);
		const finding = findingAfterWord(text, at, wordEnd);
		if (finding && finding.to > finding.from) {
			result += `${text.slice(copiedUpTo, finding.from)}${REDACTED}`;
			copiedUpTo = finding.to;
		}
		at = finding?.next ?? wordEnd;
	}
	return copiedUpTo === 0 ? text : `${result}${text.slice(copiedUpTo)}`;
}

function findingAfterWord(text: string, wordStart: number, wordEnd: number): Finding | undefined {
	const jwtEnd = jwtEndAt(text, wordStart, wordEnd);
	if (jwtEnd !== undefined) return replacement(wordStart, jwtEnd, wordEnd);
	const word = text.slice(wordStart, wordEnd);
	if (AUTH_SCHEMES.has(word.toLowerCase())) return credentialAfterScheme(text, wordEnd);
	if (!isSecretKey(word)) return undefined;
	return (
		(opensElement(text, wordStart) ? elementText(text, wordEnd) : undefined) ??
		valueAfterKey(text, wordEnd) ??
		credentialAfterSpace(text, wordEnd)
	);
}

/** A JWT whose header is the word at `start`: `eyJ…`, `.`, the payload, `.`, the signature (empty if unsigned). */
function jwtEndAt(text: string, start: number, headerEnd: number): number | undefined {
	if (!text.startsWith('eyJ', start) || headerEnd - start < MIN_JWT_HEADER) return undefined;
	if (text[headerEnd] !== '.') return undefined;
	const payloadEnd = keyCharsEnd(text, headerEnd + 1);
	if (payloadEnd - headerEnd - 1 < MIN_JWT_PAYLOAD || text[payloadEnd] !== '.') return undefined;
	return keyCharsEnd(text, payloadEnd + 1);
}

function credentialAfterScheme(text: string, schemeEnd: number): Finding | undefined {
	const start = credentialStartAfterScheme(text, schemeEnd);
	if (start === undefined) return undefined;
	return pastRedacted(text, start) ?? replacement(start, unquotedValueEnd(text, start), schemeEnd);
}

/** `key=value`, `key: value`, `"key": "value"` and their escaped forms. */
function valueAfterKey(text: string, keyEnd: number): Finding | undefined {
	const start = valueStartAfterKey(text, keyEnd);
	if (start === undefined) return undefined;
	return (
		pastRedacted(text, start) ?? quotedValue(text, start) ?? unquotedValue(text, start, keyEnd)
	);
}

function quotedValue(text: string, start: number): Finding | undefined {
	const quote = quoteAt(text, start);
	if (!quote) return undefined;
	const valueStart = start + quote.length;
	const { end, closeLength } = quotedValueEnd(text, valueStart, quote);
	return { from: valueStart, to: end, next: end + closeLength };
}

function unquotedValue(text: string, start: number, keyEnd: number): Finding {
	// `Authorization: Bearer x`: the scheme stays readable, its credential goes when the scan reaches it.
	if (AUTH_SCHEMES.has(text.slice(start, scanWord(text, start)).toLowerCase()))
		return skipTo(keyEnd);
	return replacement(start, unquotedValueEnd(text, start), keyEnd);
}

/**
 * `token 7f3a…`: a value after a secret key and white space alone, taken only when it looks like a credential (a
 * JWT is taken wherever it stands), so that "the token expired" stays.
 */
function credentialAfterSpace(text: string, keyEnd: number): Finding | undefined {
	let start = keyEnd;
	while (start < text.length && SPACES.has(text[start])) start++;
	if (start === keyEnd) return undefined;
	const end = credentialRunEnd(text, start);
	return end === undefined ? undefined : replacement(start, end, keyEnd);
}

/** At least MIN_BARE_CREDENTIAL credential characters, a digit and a letter among them: where they end. */
function credentialRunEnd(text: string, start: number): number | undefined {
	let digit = false;
	let letter = false;
	let end = start;
	for (; end < text.length; end++) {
		const code = text.charCodeAt(end);
		if (isDigit(code)) digit = true;
		else if (isLetter(code)) letter = true;
		else if (!CREDENTIAL_PUNCTUATION.has(text[end])) break;
	}
	return end - start >= MIN_BARE_CREDENTIAL && digit && letter ? end : undefined;
}

/** Whether the word at `nameStart` names a start tag: `<password`, `<wsse:Password`. */
function opensElement(text: string, nameStart: number): boolean {
	let at = nameStart - 1;
	if (text[at] === ':') {
		const limit = Math.max(0, at - MAX_NAMESPACE_PREFIX);
		at--;
		while (at > limit && isKeyChar(text.charCodeAt(at))) at--;
	}
	return text[at] === '<';
}

/** The text of an element named like a secret key: from the end of its start tag to the next `<`. */
function elementText(text: string, nameEnd: number): Finding | undefined {
	const tagEnd = startTagEnd(text, nameEnd);
	if (tagEnd === undefined) return undefined;
	const next = text.indexOf('<', tagEnd);
	return replacement(tagEnd, next === -1 ? text.length : next, tagEnd);
}

/** Where the start tag ends, past its attributes; none when it closes itself (`<token/>`) or a `<` comes first. */
function startTagEnd(text: string, nameEnd: number): number | undefined {
	const after = text[nameEnd];
	if (after !== '>' && after !== '/' && !SPACES.has(after)) return undefined;
	for (let at = nameEnd; at < text.length && text[at] !== '<'; at++)
		if (text[at] === '>') return text[at - 1] === '/' ? undefined : at + 1;
	return undefined;
}

function scanWord(text: string, from: number): number {
	let at = from;
	while (at < text.length && isKeyChar(text.charCodeAt(at)) && at - from < 16) at++;
	return at;
}

/** Leading white space, and `scheme:` with the slashes after it (WHATWG reads `\` as `/` and takes any number). */
const BEFORE_AUTHORITY = /^\s*(?:[a-z][a-z0-9+.-]*:[/\\]+)?/i;

/**
 * A URL (or what was meant to be one) as it may be shown in a message: a user name or password written into it
 * becomes "…", so the reader still sees that one was there. The userinfo ends at the last `@` before the first `/`,
 * `?` or `#` of the authority, as the WHATWG URL parser reads `https://user:p@ss@host`; without a scheme
 * (`user:pw@host/path`) the authority is what comes before the first `/`, `?` or `#`. Linear time.
 */
export function withoutUserinfo(url: string): string {
	const authorityStart = BEFORE_AUTHORITY.exec(url)?.[0].length ?? 0;
	const authorityLength = url.slice(authorityStart).search(/[/?#]/);
	const authorityEnd = authorityLength === -1 ? url.length : authorityStart + authorityLength;
	const userinfoEnd = url.lastIndexOf('@', authorityEnd - 1);
	if (userinfoEnd < authorityStart) return url;
	return `${url.slice(0, authorityStart)}…${url.slice(userinfoEnd)}`;
}
