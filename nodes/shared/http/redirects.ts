/** Where a redirect points, resolved against the URL that answered; `none` without a Location header. */
export function redirectTarget(location: unknown, from: string): URL | 'none' | 'invalid' {
	if (typeof location !== 'string' || location === '') return 'none';
	try {
		return new URL(location, from);
	} catch {
		return 'invalid';
	}
}

/** Where a redirect that is not followed points, in words; `shown` names the URL without what may be secret in it. */
export function describeRedirect(
	location: unknown,
	from: string,
	shown: (target: URL) => string,
): string {
	const target = redirectTarget(location, from);
	if (target === 'none') return 'no address (no Location header)';
	return target === 'invalid' ? 'an address that is not a URL' : shown(target);
}
