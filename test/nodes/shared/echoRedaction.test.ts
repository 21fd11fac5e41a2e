import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { INode, INodeParameters, INodeType } from 'n8n-workflow';

import { ArchiveAiMetadataApi } from '../../../credentials/ArchiveAiMetadataApi.credentials';
import { ArchiveOrganizationApi } from '../../../credentials/ArchiveOrganizationApi.credentials';
import { clearAccessTokenCache } from '../../../credentials/common/accessToken';
import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { ArchiveOrganization } from '../../../nodes/ArchiveOrganization/ArchiveOrganization.node';
import { clearSchemaCache } from '../../../nodes/shared/graphql/schemaCache';
import { credentialsFor, everythingOf, runNode } from '../../../dev/harness/execute';
import type { NodeRunResult } from '../../../dev/harness/execute';
import { startTestOrigin } from '../../../dev/harness/testOrigin';
import type { ReceivedRequest, TestOrigin } from '../../../dev/harness/testOrigin';

/**
 * A careless server that echoes the whole request (headers, query string, body) in its answers, in every way an
 * answer can carry text: GraphQL errors with HTTP 200 and 400, HTTP error bodies, token-endpoint errors and redirect
 * Locations. Whatever it echoes, no form of the live token or the password may reach any part of the node's error.
 */

/** Random cores: they survive every encoding (hex), so finding one anywhere means some form of the secret leaked. */
const TOKEN_CORE = randomBytes(12).toString('hex');
const PASSWORD_CORE = randomBytes(12).toString('hex');
/** Characters that URL encoding and JSON escaping change, so each form differs from the raw secret. */
const LIVE_TOKEN = `live+Tok/${TOKEN_CORE}="q\\z`;
/** A token that can stand in a host name, for the redirect that puts it there. */
const HOSTNAME_TOKEN = `tok${TOKEN_CORE}`;
const USERNAME = 'echo-user';
const PASSWORD = `pa"ss w+rd&=/\\${PASSWORD_CORE}ü`;

type EchoMode =
	| 'graphql200'
	| 'graphql400'
	| 'http500json'
	| 'http422text'
	| 'http401'
	| 'http500long'
	| 'graphqlOddEntries'
	| 'rotate'
	| 'redirect'
	| 'redirectToTokenHost'
	| 'introspectionEcho'
	| 'introspectionEchoType'
	| 'token400'
	| 'token500text'
	| 'tokenRedirect';

let mode: EchoMode;
let issuedToken: string;
/** Tokens the API was sent, for the server that answers with all of them ('rotate'). */
const tokensSeen = new Set<string>();
let origin: TestOrigin;

beforeAll(async () => {
	origin = await startTestOrigin((request, res) => {
		if (request.url.pathname === '/token') answerTokenRequest(request, res);
		else answerApiRequest(request, res);
	});
});
afterAll(async () => origin.close());
beforeEach(() => {
	clearAccessTokenCache();
	clearSchemaCache();
	origin.requests.length = 0;
	issuedToken = LIVE_TOKEN;
	tokensSeen.clear();
});

/** The token a request carried, from the Bearer header or the jwtauth parameter. */
function tokenOf(request: ReceivedRequest): string {
	const header = request.headers.authorization ?? '';
	if (header.startsWith('Bearer ')) return header.slice('Bearer '.length);
	return request.url.searchParams.get('jwtauth') ?? '';
}

/** The decoded `user:password` of a Basic header. */
function basicOf(request: ReceivedRequest): string {
	const header = request.headers.authorization ?? '';
	return header.startsWith('Basic ')
		? Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8')
		: '';
}

/** The request as a server might dump it. */
function dumpOf(request: ReceivedRequest): string {
	return JSON.stringify({
		method: request.method,
		url: request.url.href,
		headers: request.headers,
		body: request.body.toString('utf8'),
	});
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function answerTokenRequest(request: ReceivedRequest, res: ServerResponse): void {
	const basic = basicOf(request);
	const password = basic.slice(basic.indexOf(':') + 1);
	const echo = `Authorization: ${request.headers.authorization} (user:password ${basic}, encoded ${encodeURIComponent(password)}, escaped ${JSON.stringify(password)}) for ${request.url.href} with ${request.body.toString('utf8')}`;
	if (mode === 'token400')
		return sendJson(res, 400, { error: 'invalid_request', error_description: echo });
	if (mode === 'token500text') {
		res.writeHead(500, { 'content-type': 'text/plain' });
		return void res.end(echo);
	}
	if (mode === 'tokenRedirect') {
		res.writeHead(302, {
			location: `http://${encodeURIComponent(USERNAME)}:${encodeURIComponent(password)}@127.0.0.1:9/x?password=${encodeURIComponent(password)}`,
		});
		return void res.end();
	}
	if (mode === 'rotate') issuedToken = `${LIVE_TOKEN}-${tokensSeen.size + 1}`;
	sendJson(res, 200, { access_token: issuedToken, expires_in: 3600 });
}

function answerApiRequest(request: ReceivedRequest, res: ServerResponse): void {
	const token = tokenOf(request);
	const dump = dumpOf(request);
	const url = request.url.href;
	const graphqlErrors = [
		{
			message: `token ${token} is not valid for this role`,
			extensions: { code: `invalid-jwt-${token}`, echoed: dump },
			path: ['face_tasks', token],
		},
		{ message: `request was ${dump}` },
		{ message: `encoded ${encodeURIComponent(url)}` },
		{ message: `escaped ${JSON.stringify(dump)}` },
		{ message: `{"accessToken": "${token}", "access_token":"${token}"}` },
	];
	switch (mode) {
		case 'graphql200':
			return sendJson(res, 200, { errors: graphqlErrors });
		case 'graphql400':
			return sendJson(res, 400, { errors: graphqlErrors });
		case 'http500json':
			return sendJson(res, 500, {
				message: `token ${token} failed at ${encodeURIComponent(url)}; ${dump}`,
			});
		case 'http422text':
			res.writeHead(422, { 'content-type': 'text/plain' });
			return void res.end(
				`token ${token} refused; Authorization: ${request.headers.authorization}; ${url}`,
			);
		case 'http401':
			return sendJson(res, 401, { message: `token ${token} expired; ${dump}` });
		case 'rotate':
			// The first token is refused (n8n fetches another); the answer to the second names both.
			tokensSeen.add(token);
			if (token === `${LIVE_TOKEN}-1`) return sendJson(res, 401, { message: 'expired' });
			return sendJson(res, 200, {
				errors: [{ message: `tokens seen: ${[...tokensSeen].join(', ')}` }],
			});
		case 'graphqlOddEntries':
			return sendJson(res, 200, {
				errors: [
					null,
					`plain text entry with ${token}`,
					{ message: 42, path: Array.from({ length: 1000 }, (_, index) => `${token}-${index}`) },
				],
			});
		case 'introspectionEcho':
			// An answer to the schema query that is no schema, holding the request as it came.
			return sendJson(res, 200, { data: { echoed: dump, token } });
		case 'introspectionEchoType':
			return sendJson(res, 200, {
				data: { __schema: { queryType: { name: `Query_${token}` }, types: [] } },
			});
		case 'http500long':
			// The token straddles the 500 characters an error shows of a body.
			res.writeHead(500, { 'content-type': 'text/plain' });
			return void res.end(`${'x'.repeat(490)}${token} and more`);
		case 'redirect':
			res.writeHead(302, {
				location: `http://u:${encodeURIComponent(token)}@127.0.0.1:9/${encodeURIComponent(token)}?jwtauth=${encodeURIComponent(token)}`,
			});
			return void res.end();
		case 'redirectToTokenHost':
			res.writeHead(302, { location: `http://${token}.invalid:8080/` });
			return void res.end();
		default:
			return sendJson(res, 500, { message: 'unexpected mode' });
	}
}

interface NodeCase {
	name: string;
	nodeType: () => INodeType;
	credentialType: string;
	credential: () => ArchiveAiMetadataApi | ArchiveOrganizationApi;
	endpointProperty: string;
	usernameProperty: string;
	parameters: INodeParameters;
}

const NODES: NodeCase[] = [
	{
		name: 'AI Metadata',
		nodeType: () => new ArchiveAiMetadata(),
		credentialType: 'archiveAiMetadataApi',
		credential: () => new ArchiveAiMetadataApi(),
		endpointProperty: 'graphqlUrl',
		usernameProperty: 'email',
		parameters: {
			resource: 'customQuery',
			operation: 'execute',
			query: 'query Faces { face_tasks(limit: 1) { task_id } }',
			options: { maxRetries: 0 },
		},
	},
	{
		name: 'Organization',
		nodeType: () => new ArchiveOrganization(),
		credentialType: 'archiveOrganizationApi',
		credential: () => new ArchiveOrganizationApi(),
		endpointProperty: 'apiUrl',
		usernameProperty: 'username',
		parameters: {
			resource: 'contentPartner',
			operation: 'getAll',
			limit: 3,
			options: { maxRetries: 0 },
		},
	},
];

const PLACEMENTS = ['header', 'query'] as const;

async function runAgainstEcho(
	node: NodeCase,
	placement: (typeof PLACEMENTS)[number],
	settings: Partial<INode> = {},
): Promise<NodeRunResult> {
	const credentials = credentialsFor([node.credential()]);
	credentials.set(node.credentialType, {
		authUrl: origin.baseUrl,
		[node.endpointProperty]: `${origin.baseUrl}/graphql`,
		[node.usernameProperty]: USERNAME,
		password: PASSWORD,
		jwtPlacement: placement,
	});
	return await runNode({
		nodeType: node.nodeType(),
		parameters: node.parameters,
		credentials,
		settings,
	});
}

/** The forms a secret takes in a request and in an echo of it. */
function formsOf(secret: string): string[] {
	const uri = encodeURIComponent(secret);
	const json = JSON.stringify(secret).slice(1, -1);
	return [secret, uri, encodeURIComponent(uri), json, JSON.stringify(json).slice(1, -1)];
}

function expectNoSecrets(result: NodeRunResult): void {
	const text = everythingOf(result);
	const basic = Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64');
	for (const secret of [
		...formsOf(issuedToken),
		...formsOf(PASSWORD),
		basic,
		TOKEN_CORE,
		PASSWORD_CORE,
	])
		expect(text).not.toContain(secret);
}

describe.each(NODES)('$name node against a server that echoes the request', (node) => {
	describe.each(PLACEMENTS)('token sent as %s', (placement) => {
		it('GraphQL errors with HTTP 200: message, description, code and path keep the server text, secrets redacted', async () => {
			mode = 'graphql200';
			const result = await runAgainstEcho(node, placement);
			expect(origin.requests.some((request) => tokenOf(request) === LIVE_TOKEN)).toBe(true);
			expect(result.error).toBeDefined();
			expectNoSecrets(result);
			expect(result.error?.message).toContain('token [redacted] is not valid for this role');
			expect(result.error?.description).toContain('"accessToken": "[redacted]"');
			expect(result.error?.description).toContain('at face_tasks.[redacted]');
			expect(result.error?.httpCode).toBe('invalid-jwt-[redacted]');
		});

		it('GraphQL errors with HTTP 200, continuing on fail: the error item holds no secret either', async () => {
			mode = 'graphql200';
			const result = await runAgainstEcho(node, placement, { onError: 'continueRegularOutput' });
			expect(result.error).toBeUndefined();
			expect(result.outputs[0][0].json.error).toContain('token [redacted] is not valid');
			expectNoSecrets(result);
		});

		it('GraphQL errors with HTTP 400', async () => {
			mode = 'graphql400';
			const result = await runAgainstEcho(node, placement);
			expectNoSecrets(result);
			expect(result.error?.message).toContain('token [redacted] is not valid for this role');
		});

		it.each(['http500json', 'http422text', 'http401'] as const)(
			'an HTTP error body (%s)',
			async (status) => {
				mode = status;
				const result = await runAgainstEcho(node, placement);
				expectNoSecrets(result);
				expect(result.error?.description).toMatch(
					/^The server said: token \[redacted\] (failed|refused|expired)/,
				);
			},
		);

		it('an HTTP error body longer than what is shown, the token where it is cut', async () => {
			mode = 'http500long';
			const result = await runAgainstEcho(node, placement);
			expectNoSecrets(result);
			expect(result.error?.description).toMatch(
				new RegExp(`^The server said: ${'x'.repeat(490)}\\[redacted\\]…\\.`),
			);
			expect(everythingOf(result)).not.toContain(LIVE_TOKEN.slice(0, 8));
		});

		it.each(['redirect', 'redirectToTokenHost'] as const)(
			'a redirect whose Location carries the token (%s)',
			async (redirect) => {
				mode = redirect;
				if (redirect === 'redirectToTokenHost') issuedToken = HOSTNAME_TOKEN;
				const result = await runAgainstEcho(node, placement);
				expectNoSecrets(result);
				expect(result.error?.message).toContain('redirected (HTTP 302)');
			},
		);

		it.each(['introspectionEcho', 'introspectionEchoType'] as const)(
			'an answer to the schema query that echoes the request (%s)',
			async (introspectionMode) => {
				mode = introspectionMode;
				const result = await runAgainstEcho(node, placement);
				expect(origin.requests.some((request) => request.url.pathname !== '/token')).toBe(true);
				expectNoSecrets(result);
				expect(result.error?.message).toBe(
					`${node.name} API: the endpoint's answer to the schema query is not a GraphQL schema`,
				);
			},
		);

		it.each(['token400', 'token500text', 'tokenRedirect'] as const)(
			'a token endpoint that echoes the Basic credential and password (%s)',
			async (tokenMode) => {
				mode = tokenMode;
				const result = await runAgainstEcho(node, placement);
				expect(origin.requests[0].url.pathname).toBe('/token');
				expectNoSecrets(result);
				expect(result.error?.message).toMatch(/token endpoint/);
			},
		);
	});
});

describe('GraphQL error entries of any shape', () => {
	it('null, a bare string and a number as message: a NodeApiError with what can be shown, redacted and bounded', async () => {
		mode = 'graphqlOddEntries';
		const result = await runAgainstEcho(NODES[0], 'header');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('AI Metadata API: GraphQL error');
		expect(result.error?.description).toContain('plain text entry with [redacted]');
		expect(result.error?.description).toContain('42 (at [redacted]-0.[redacted]-1.');
		expect(result.error?.description?.length).toBeLessThan(2000);
		expectNoSecrets(result);
	});
});

describe('a token refreshed during the run', () => {
	it.each(NODES)(
		'$name: both the refused token and its successor are redacted where the server names them',
		async (node) => {
			mode = 'rotate';
			const result = await runAgainstEcho(node, 'header');
			expect([...tokensSeen]).toEqual([`${LIVE_TOKEN}-1`, `${LIVE_TOKEN}-2`]);
			expect(result.error?.message).toMatch(/tokens seen: \[redacted\], \[redacted\]$/);
			expectNoSecrets(result);
		},
	);
});
