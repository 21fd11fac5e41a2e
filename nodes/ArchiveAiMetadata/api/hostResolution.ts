import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Name resolution for the download checks, borrowed from n8n (a community node may not import node:dns): n8n 2.x's
 * `getSecureEgressFilter('unsafe').createSecureLookup()` is node's own `dns.lookup` ('safe' would fail lookups by
 * its own rules instead of telling the addresses). n8n-workflow does not declare it, hence the local types.
 */

/** `dns.lookup(hostname, { all: true }, callback)`, as much of it as is used here. */
type LookupAll = (
	hostname: string,
	options: { all: true },
	callback: (error: Error | null, addresses: Array<{ address: string }> | string) => void,
) => void;

interface EgressFilterHelpers {
	getSecureEgressFilter?: (policy: 'unsafe') => { createSecureLookup(): LookupAll };
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
				if (found.length > 0) return resolve(found);
				// No address means nothing to check: refused as a name that does not resolve.
				const notFound = new Error(`no address found for ${hostname}`);
				reject(Object.assign(notFound, { code: 'ENOTFOUND' }));
			});
		});
}
