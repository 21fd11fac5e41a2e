import { splitList } from '../shared/n8n/params';

/** The Event Types choice. Any type is the default: a type the archive adds later must not be dropped unseen. */
export const EVENT_TYPE_CHOICES = {
	any: ['*'],
	/** The one type the archive is known to send, for both outcomes: `<brand>.sip.archived`. */
	sipArchived: ['*.sip.archived'],
} as const;
export const DEFAULT_EVENT_TYPE_CHOICE = 'any';
/** What Custom Patterns starts with when chosen. */
export const DEFAULT_CUSTOM_EVENT_TYPES = '*.sip.archived';

export function splitPatterns(value: unknown): string[] {
	return typeof value === 'string' ? splitList(value, /[\n,]/) : [];
}

/**
 * `*` matches any run of characters, everything else itself. No regular expression: the literal parts are found left
 * to right (the leftmost match is always the best), so `*a*a*a*b` costs one scan instead of backtracking.
 */
export function globMatches(pattern: string, text: string): boolean {
	const parts = pattern.split('*');
	if (parts.length === 1) return pattern === text;
	const head = parts[0];
	const tail = parts[parts.length - 1];
	if (text.length < head.length + tail.length || !text.startsWith(head) || !text.endsWith(tail))
		return false;
	const end = text.length - tail.length;
	let at = head.length;
	for (const part of parts.slice(1, -1)) {
		if (part === '') continue;
		const found = text.indexOf(part, at);
		if (found < 0 || found + part.length > end) return false;
		at = found + part.length;
	}
	return true;
}

/** True when `type` matches any pattern; an empty pattern list lets every type through. */
export function typeMatches(type: string, patterns: string[]): boolean {
	return patterns.length === 0 || patterns.some((pattern) => globMatches(pattern, type));
}
