/**
 * Marks an error of the credentials' token flow in its `context`, the one part of an error n8n keeps when it wraps
 * what preAuthentication threw; the node client reads the mark to show the message as is and retry only where useful.
 */
export const TOKEN_ERROR_CONTEXT_KEY = 'archiveTokenError';
