/**
 * List columns come back as JSON arrays (jsonb) or as Postgres array literal text (`{a,b}`, `{{1.5,3},{5,7}}`).
 * Both are read into arrays; anything else is an error, never an empty list.
 */

/** What the elements of a list column are: text (ids, links) or numbers (counts, seconds). */
export type ListElement = 'text' | 'number';

export class UnexpectedListError extends Error {
	constructor(column: string, view: string, value: unknown) {
		const shown = JSON.stringify(value) ?? String(value);
		super(
			`Column "${column}" of ${view}: expected a list (a JSON array or a Postgres array literal such as {a,b}), got ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}`,
		);
		this.name = 'UnexpectedListError';
	}
}

/** A list column's value as an array (null stays null), or undefined when it is not a list in either form. */
export function readList(value: unknown, element: ListElement): unknown[] | null | undefined {
	if (value === null || value === undefined) return null;
	if (Array.isArray(value)) return value as unknown[];
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text.startsWith('[')) {
		const json = parseJsonArray(text);
		if (json) return json;
	}
	// Postgres may prefix non-default bounds: `[0:1]={a,b}`.
	return parseArrayLiteral(text.replace(/^(?:\[-?\d+:-?\d+\])+=/, ''), element);
}

function parseJsonArray(text: string): unknown[] | undefined {
	try {
		const parsed = JSON.parse(text) as unknown;
		return Array.isArray(parsed) ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/** Parses a Postgres array literal: nested braces, quoted elements with backslash escapes, unquoted NULL. */
function parseArrayLiteral(text: string, element: ListElement): unknown[] | undefined {
	const reader = new LiteralReader(text, element);
	const list = reader.array();
	return list !== undefined && reader.atEnd() ? list : undefined;
}

class LiteralReader {
	private position = 0;

	constructor(
		private readonly text: string,
		private readonly element: ListElement,
	) {}

	atEnd(): boolean {
		this.skipSpaces();
		return this.position === this.text.length;
	}

	array(): unknown[] | undefined {
		this.skipSpaces();
		if (this.text[this.position] !== '{') return undefined;
		this.position++;
		const items: unknown[] = [];
		this.skipSpaces();
		if (this.text[this.position] === '}') {
			this.position++;
			return items;
		}
		for (;;) {
			this.skipSpaces();
			const next = this.text[this.position];
			const item = next === '{' ? this.array() : next === '"' ? this.quoted() : this.bare();
			if (item === undefined) return undefined;
			items.push(item);
			this.skipSpaces();
			const separator = this.text[this.position++];
			if (separator === '}') return items;
			if (separator !== ',') return undefined;
		}
	}

	private quoted(): unknown {
		let value = '';
		for (this.position++; this.position < this.text.length; this.position++) {
			const char = this.text[this.position];
			if (char === '"') {
				this.position++;
				return this.typed(value);
			}
			value += char === '\\' ? (this.text[++this.position] ?? '') : char;
		}
		return undefined;
	}

	private bare(): unknown {
		const start = this.position;
		while (this.position < this.text.length && !',}{"\\'.includes(this.text[this.position]))
			this.position++;
		const token = this.text.slice(start, this.position).trim();
		if (token === '') return undefined;
		if (token.toUpperCase() === 'NULL') return null;
		return this.typed(token);
	}

	private typed(token: string): unknown {
		if (this.element === 'text') return token;
		const number = Number(token);
		return token.trim() !== '' && Number.isFinite(number) ? number : undefined;
	}

	private skipSpaces(): void {
		while (this.position < this.text.length && /\s/.test(this.text[this.position])) this.position++;
	}
}
