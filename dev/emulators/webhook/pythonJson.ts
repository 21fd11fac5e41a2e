/**
 * JSON exactly as Python's `json.dumps(value)` writes it with default settings, which is what the real sender
 * signs: `", "` and `": "` separators, non-ASCII escaped as lowercase `\uXXXX` (astral characters as surrogate
 * pairs), insertion order of keys kept.
 */

export function pythonJsonDumps(value: unknown): string {
	if (value === null || value === undefined) return 'null';
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (typeof value === 'number') return pythonNumber(value);
	if (typeof value === 'string') return pythonString(value);
	if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
	if (typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>).filter(
			([, item]) => item !== undefined,
		);
		return `{${entries.map(([key, item]) => `${pythonString(key)}: ${pythonJsonDumps(item)}`).join(', ')}}`;
	}
	throw new TypeError(`Object of type ${typeof value} is not JSON serializable`);
}

function pythonNumber(value: number): string {
	if (Number.isNaN(value)) return 'NaN';
	if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
	// Python's float repr writes exponents with at least two digits (1e-07, 1e+21).
	return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
}

const SHORT_ESCAPES: Record<string, string> = {
	'"': '\\"',
	'\\': '\\\\',
	'\n': '\\n',
	'\r': '\\r',
	'\t': '\\t',
	'\b': '\\b',
	'\f': '\\f',
};

function pythonString(text: string): string {
	let out = '"';
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		const code = text.charCodeAt(i);
		if (SHORT_ESCAPES[char]) out += SHORT_ESCAPES[char];
		// JS strings are UTF-16 already, so astral characters come out as surrogate pairs like Python's.
		else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
		else out += char;
	}
	return `${out}"`;
}
