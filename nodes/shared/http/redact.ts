const REDACTED = '[redacted]';

/**
 * Servers sometimes echo the request in their error text. Credentials and tokens in it (`Basic …`, `Bearer …`,
 * `access_token`/`jwtauth` values, and any of the `known` secrets) are replaced before the text is shown.
 */
export function redactSecrets(text: string, known: Array<string | undefined> = []): string {
	let redacted = text
		.replace(/\b(Basic|Bearer)(\s+)[^\s"',;]+/gi, `$1$2${REDACTED}`)
		.replace(/(\b(?:access_token|jwtauth)["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi, `$1${REDACTED}`);
	for (const secret of known) {
		if (secret) redacted = redacted.split(secret).join(REDACTED);
	}
	return redacted;
}
