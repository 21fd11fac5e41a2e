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
