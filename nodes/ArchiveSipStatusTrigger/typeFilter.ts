/** Glob-like event-type filter: `*` matches any run of characters, patterns separated by commas or lines. */

export const DEFAULT_EVENT_TYPE_PATTERNS = '*.sip.*';

export function splitPatterns(value: unknown): string[] {
	if (typeof value !== 'string') return [];
	return value
		.split(/[\n,]/)
		.map((pattern) => pattern.trim())
		.filter((pattern) => pattern !== '');
}

function globToRegExp(pattern: string): RegExp {
	const escaped = pattern
		.split('*')
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
		.join('.*');
	return new RegExp(`^${escaped}$`);
}

/** True when `type` matches any pattern; an empty pattern list lets every type through. */
export function typeMatches(type: string, patterns: string[]): boolean {
	if (patterns.length === 0) return true;
	return patterns.some((pattern) => globToRegExp(pattern).test(type));
}
