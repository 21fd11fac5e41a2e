import { NodeOperationError } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { classifyAddress, classifyHost, isIpAddress } from './addresses';
import { withoutUserinfo } from '../../shared/http/redact';
import { splitList } from '../../shared/n8n/params';

/** The credential fields that say where Download Files may fetch from. */
const ALLOWED_ORIGINS_FIELD = 'Allowed Download Origins';
const ALLOW_PRIVATE_FIELD = 'Allow Private Addresses';

export interface DownloadPolicy {
	/** `scheme://host[:port]` as URL.origin writes it. */
	allowedOrigins: string[];
	allowPrivateAddresses: boolean;
}

/** Why a link is not fetched, in words fit for the user; never carries the link itself (its signature grants access). */
export interface Refusal {
	refusal: string;
}

/** An origin as the user may write it (`https://s3.example.org`, trailing slash allowed), or undefined. */
function parseOrigin(entry: string): string | undefined {
	const url = URL.parse(entry);
	const bare =
		url !== null &&
		(url.protocol === 'https:' || url.protocol === 'http:') &&
		url.username === '' &&
		url.password === '' &&
		url.pathname === '/' &&
		url.search === '' &&
		url.hash === '';
	return bare ? url.origin : undefined;
}

/** The credential's download policy; no origins listed means the GraphQL endpoint's own origin only. */
export function readDownloadPolicy(
	node: INode,
	credentials: ICredentialDataDecryptedObject,
): DownloadPolicy {
	const origins: string[] = [];
	for (const entry of splitList(credentials.allowedDownloadOrigins, /[\s,]+/)) {
		const origin = parseOrigin(entry);
		if (!origin) {
			throw new NodeOperationError(
				node,
				`Credential field "${ALLOWED_ORIGINS_FIELD}": ${JSON.stringify(withoutUserinfo(entry).slice(0, 200))} is not an origin`,
				{
					description:
						'Write each as scheme://host or scheme://host:port (http or https, no path), separated by commas, e.g. https://archive-files.s3.eu-west-1.amazonaws.com',
				},
			);
		}
		origins.push(origin);
	}
	if (origins.length === 0) {
		const endpoint = URL.parse(String((credentials.graphqlUrl as string | undefined) ?? '').trim());
		const origin = endpoint && parseOrigin(endpoint.origin);
		if (origin) origins.push(origin);
	}
	return {
		allowedOrigins: origins,
		allowPrivateAddresses: credentials.allowPrivateAddresses === true,
	};
}

function privateRefusal(what: string, kind: string): Refusal {
	return {
		refusal:
			`${what} is a ${kind} address; downloads from private, loopback, link-local and cloud metadata ` +
			`addresses are refused unless the credential's "${ALLOW_PRIVATE_FIELD}" is on`,
	};
}

/**
 * Checks a link before anything connects to it: http(s), an allowed origin, no non-public address written out.
 * Other names are judged by their addresses (checkResolved, n8n 2.x) or the one that answers (checkPeer, 1.x).
 */
export function checkDestination(link: string, policy: DownloadPolicy): { url: URL } | Refusal {
	const url = URL.parse(link);
	if (!url) return { refusal: 'the API returned a download link that is not a URL' };
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return {
			refusal: `the API returned a ${url.protocol} link; only http and https links are downloaded`,
		};
	if (!policy.allowedOrigins.includes(url.origin)) {
		return {
			refusal:
				`the download link points to ${url.origin}, which is not in the credential's "${ALLOWED_ORIGINS_FIELD}" ` +
				`(${policy.allowedOrigins.join(', ') || 'none'}); add it there if the archive keeps its files at that address`,
		};
	}
	const kind = classifyHost(url.hostname);
	if (kind && !policy.allowPrivateAddresses) return privateRefusal(url.host, kind);
	return { url };
}

/** Checks every address a host name resolved to (n8n 2.x): the client may connect to any of them. */
export function checkResolved(
	url: URL,
	addresses: string[],
	policy: DownloadPolicy,
): Refusal | undefined {
	if (policy.allowPrivateAddresses) return undefined;
	for (const address of addresses) {
		const kind = classifyAddress(address);
		if (kind) return privateRefusal(`${url.host} resolves to ${address}, which`, kind);
	}
	return undefined;
}

/**
 * Checks the address a response came from before anything of it is used (n8n 1.x, which lends no resolver). Where
 * it cannot be known (a body n8n decompressed, a stream hiding the socket) a host name is refused: fail closed. An
 * IP address written out was checked as written.
 */
export function checkPeer(
	url: URL,
	peerAddress: string | undefined,
	policy: DownloadPolicy,
): Refusal | undefined {
	if (policy.allowPrivateAddresses) return undefined;
	if (peerAddress === undefined) {
		if (isIpAddress(url.hostname)) return undefined;
		return {
			refusal:
				`the address ${url.host} answered from cannot be checked (as when a server compresses its answer), so it ` +
				`could be a private address; such downloads are refused unless the credential's "${ALLOW_PRIVATE_FIELD}" is on`,
		};
	}
	const kind = classifyAddress(peerAddress);
	return kind ? privateRefusal(`${url.host} answered from ${peerAddress}, which`, kind) : undefined;
}
