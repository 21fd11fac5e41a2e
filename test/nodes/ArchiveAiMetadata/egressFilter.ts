import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

/**
 * What n8n 2.x's `helpers.getSecureEgressFilter` offers, for tests that run in the harness's n8n-core 1.x, which
 * has no such helper. Its lookup answers from a table the test controls (as node's dns.lookup, which n8n's
 * passthrough filter hands out, would answer from DNS) and never connects anywhere; the network guard still
 * stands behind it for whatever the HTTP client itself resolves or connects to.
 */
export interface FakeEgressFilter {
	/** The node type under test, with the helper added to its execute context. */
	nodeType: INodeType;
	/** The policies the node asked the helper for, in order. */
	policies: string[];
	/** The names the filter's lookup was asked for, in order, with the options given. */
	lookups: Array<{ hostname: string; options: unknown }>;
}

interface LookupAddress {
	address: string;
	family: number;
}

type LookupCallback = (error: Error | null, addresses: LookupAddress[] | string) => void;

/** A name's answer: its addresses, or the error its lookup fails with. */
export type FakeAnswer = string[] | Error;

export function withEgressFilter(
	nodeType: INodeType,
	answers: Record<string, FakeAnswer>,
): FakeEgressFilter {
	const policies: string[] = [];
	const lookups: FakeEgressFilter['lookups'] = [];
	const lookup = (hostname: string, options: unknown, callback: LookupCallback) => {
		lookups.push({ hostname, options });
		const answer = answers[hostname.toLowerCase()];
		setImmediate(() => {
			if (answer instanceof Error) return callback(answer, []);
			if (answer === undefined)
				return callback(
					Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
					[],
				);
			callback(
				null,
				answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
			);
		});
	};
	const getSecureEgressFilter = (policy = 'safe') => {
		policies.push(policy);
		return {
			createSecureLookup: () => lookup,
		};
	};
	const wrapped = Object.create(nodeType) as INodeType;
	wrapped.execute = async function (this: IExecuteFunctions) {
		Object.assign(this.helpers, { getSecureEgressFilter });
		return await nodeType.execute!.call(this);
	};
	return { nodeType: wrapped, policies, lookups };
}
