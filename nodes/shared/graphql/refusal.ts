import { NodeApiError } from 'n8n-workflow';

import type { RequestContext } from './client';

/** A GraphQL error from a server that answered: the error carries the server's code (e.g. `validation-failed`), not an HTTP status. */
export function isGraphqlRefusal(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const code = error.httpCode;
	return typeof code === 'string' && code !== '' && !/^\d+$/.test(code);
}

/**
 * A server that answered but refused the introspection query: a GraphQL error, or HTTP 400/403/405 from servers
 * that block it before GraphQL. Authentication, network and server failures are not refusals.
 */
export function isIntrospectionRefused(error: unknown): boolean {
	if (isGraphqlRefusal(error)) return true;
	const code = error instanceof NodeApiError ? error.httpCode : undefined;
	return code === '400' || code === '403' || code === '405';
}

/** Transport failures are NodeApiErrors already; anything else becomes one. */
export function asApiError(ctx: RequestContext, error: unknown): NodeApiError {
	if (error instanceof NodeApiError) return error;
	return new NodeApiError(ctx.getNode(), { message: (error as Error).message ?? String(error) });
}
