/** Socket error codes after which the same request may succeed when sent again (GraphQL and downloads). */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ECONNREFUSED',
	'EAI_AGAIN',
]);

/** Messages carry words for codes: n8n replaces a message holding a raw ECONNREFUSED with a generic text. */
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
 * or `_` (ECONNRESET, ERR_SOCKET_CONNECTION_TIMEOUT). Word by word, so linear in the text (a single regular
 * expression with \b backtracks quadratically on a long run of capitals that ends in a digit).
 */
export function findNetworkCode(text: string): string | undefined {
	return text.match(/\w+/g)?.find((word) => /^E[A-Z]{3}[A-Z_]*$/.test(word));
}
