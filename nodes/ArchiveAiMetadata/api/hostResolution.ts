import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Name resolution for the download checks, borrowed from n8n: a community node may not import node:dns. n8n 2.x
 * offers `helpers.getSecureEgressFilter(policy)`; with the 'unsafe' policy it is n8n's passthrough filter, whose
 * `createSecureLookup()` is node's own `dns.lookup` (with 'safe' it may be n8n's SSRF filter, which fails a lookup
 * by its own rules instead of telling the addresses). n8n 1.x and the n8n-workflow this package builds against do
 * not declare it, hence the local types.
 */

interface ResolvedAddress {
	address: string;
}

/** `dns.lookup(hostname, { all: true }, callback)`, as much of it as is used here. */
type LookupAll = (
	hostname: string,
	options: { all: true },
	callback: (error: Error | null, addresses: ResolvedAddress[] | string) => void,
) => void;

interface EgressFilter {
	createSecureLookup(): LookupAll;
}

interface EgressFilterHelpers {
	getSecureEgressFilter?: (useDefaultSsrfPolicy: 'unsafe') => EgressFilter;
}

/** Every address a host name resolves to (IPv4 and IPv6); rejects with the lookup's own error (ENOTFOUND, ...). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The resolver n8n offers this execution, or undefined on n8n 1.x, which has none to offer. */
export function hostResolverOf(ctx: IExecuteFunctions): ResolveHost | undefined {
	const helpers = ctx.helpers as EgressFilterHelpers;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	const lookup = helpers.getSecureEgressFilter('unsafe').createSecureLookup();
	return async (hostname) =>
		await new Promise<string[]>((resolve, reject) => {
			lookup(hostname, { all: true }, (error, addresses) => {
				if (error) return reject(error);
				const found =
					typeof addresses === 'string' ? [addresses] : addresses.map((entry) => entry.address);
				// No address means nothing to check: refused as a name that does not resolve.
				if (found.length === 0) reject(notFound(hostname));
				else resolve(found);
			});
		});
}

function notFound(hostname: string): Error {
	return Object.assign(new Error(`no address found for ${hostname}`), { code: 'ENOTFOUND' });
}
