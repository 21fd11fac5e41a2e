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
	let position = 0;
	const skipSpaces = () => {
		while (position < text.length && /\s/.test(text[position])) position++;
	};
	const typed = (token: string): unknown => {
		if (element === 'text') return token;
		const number = Number(token);
		return token.trim() !== '' && Number.isFinite(number) ? number : undefined;
	};
	const quoted = (): unknown => {
		let value = '';
		for (position++; position < text.length; position++) {
			const char = text[position];
			if (char === '"') {
				position++;
				return typed(value);
			}
			value += char === '\\' ? (text[++position] ?? '') : char;
		}
		return undefined;
	};
	const bare = (): unknown => {
		const start = position;
		while (position < text.length && !',}{"\\'.includes(text[position])) position++;
		const token = text.slice(start, position).trim();
		if (token === '') return undefined;
		return token.toUpperCase() === 'NULL' ? null : typed(token);
	};
	const array = (): unknown[] | undefined => {
		skipSpaces();
		if (text[position] !== '{') return undefined;
		position++;
		const items: unknown[] = [];
		skipSpaces();
		if (text[position] === '}') {
			position++;
			return items;
		}
		for (;;) {
			skipSpaces();
			const next = text[position];
			const item = next === '{' ? array() : next === '"' ? quoted() : bare();
			if (item === undefined) return undefined;
			items.push(item);
			skipSpaces();
			const separator = text[position++];
			if (separator === '}') return items;
			if (separator !== ',') return undefined;
		}
	};
	const list = array();
	skipSpaces();
	return list !== undefined && position === text.length ? list : undefined;
}
