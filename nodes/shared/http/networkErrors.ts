/**
 * Socket error codes after which the same request may succeed when sent again (GraphQL requests and file
 * downloads). Only codes findNetworkCode can find in an error text, or Node sets as an error's `code`.
 */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ECONNREFUSED',
	'EAI_AGAIN',
]);

/**
 * Words for socket error codes. n8n replaces any error message that contains a raw code such as ECONNREFUSED
 * with a generic text, which would hide which URL failed; messages therefore carry these words instead.
 */
const NETWORK_CODE_WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ECONNABORTED: 'connection aborted',
	ETIMEDOUT: 'timed out',
	EPIPE: 'connection closed',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host lookup failed',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'connection timed out',
	CERT_HAS_EXPIRED: 'TLS certificate expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

export function describeNetworkCode(code: string | undefined): string {
	if (!code) return 'no response';
	return NETWORK_CODE_WORDS[code] ?? 'network error';
}

/**
 * The first socket error code in a text: a whole word of an `E` and at least three more capitals, then capitals
 * or `_` (ECONNRESET, ERR_SOCKET_CONNECTION_TIMEOUT). A scan over the words, linear in the text: the regular
 * expression it replaces (/\b(E[A-Z]{3,}[A-Z_]*)\b/) backtracked quadratically on a long run of capitals that
 * ends in a digit (1.2 s for 20,000 characters).
 */
export function findNetworkCode(text: string): string | undefined {
	let at = 0;
	while (at < text.length) {
		if (!isWordChar(text.charCodeAt(at))) {
			at++;
			continue;
		}
		const start = at;
		while (at < text.length && isWordChar(text.charCodeAt(at))) at++;
		if (isNetworkCode(text, start, at)) return text.slice(start, at);
	}
	return undefined;
}

/** A word character as a regular expression's \b sees it. */
function isWordChar(code: number): boolean {
	return (
		isCapital(code) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95
	);
}

function isCapital(code: number): boolean {
	return code >= 65 && code <= 90;
}

function isNetworkCode(text: string, start: number, end: number): boolean {
	if (end - start < 4 || text[start] !== 'E') return false;
	for (let at = start + 1; at < end; at++) {
		const code = text.charCodeAt(at);
		if (!(isCapital(code) || (code === 95 && at >= start + 4))) return false;
	}
	return true;
}
