import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';

import { ArchiveAiMetadataApi } from '../../credentials/ArchiveAiMetadataApi.credentials';
import { ArchiveOrganizationApi } from '../../credentials/ArchiveOrganizationApi.credentials';
import { clearAccessTokenCache } from '../../credentials/common/accessToken';
import { startSandbox } from '../../dev/emulators';
import type { Sandbox } from '../../dev/emulators';
import { runNode } from '../../dev/harness/execute';
import { graphqlProbe } from '../../dev/harness/graphqlProbe';
import { AI_METADATA_SERVICE } from '../../nodes/ArchiveAiMetadata/api/client';
import { ORGANIZATION_SERVICE } from '../../nodes/ArchiveOrganization/api/resources';
import { aiCredentials, orgCredentials } from '../../dev/harness/sandboxCredentials';
import { forward, redirect, startTestOrigin } from '../../dev/harness/testOrigin';
import type { TestOrigin } from '../../dev/harness/testOrigin';

const aiProbe = graphqlProbe(AI_METADATA_SERVICE);
const orgProbe = graphqlProbe(ORGANIZATION_SERVICE);
const AI_QUERY = 'query Probe { face_tasks(limit: 1) { task_id } }';
const ORG_QUERY = 'query Probe { contentpartners(limit: 1, offset: 0) { id } }';

let sandbox: Sandbox;
/** The other host: records whatever reaches it. */
let elsewhere: TestOrigin;
/** The configured host: redirects every request to `elsewhere`, keeping path and query (as many servers do). */
let redirecting: TestOrigin;

beforeAll(async () => {
	sandbox = await startSandbox({ rows: 20 });
	elsewhere = await startTestOrigin((_request, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"access_token":"from-elsewhere","data":{"__typename":"Query"}}');
	});
	redirecting = await startTestOrigin((request, res) => {
		const status =
			Number(request.headers['x-test-status'] ?? 0) ||
			(request.url.pathname.endsWith('/token') ? 302 : 307);
		redirect(res, status, `${elsewhere.baseUrl}${request.url.pathname}${request.url.search}`);
	});
});
afterAll(async () => {
	await Promise.all([sandbox.close(), elsewhere.close(), redirecting.close()]);
});
beforeEach(() => {
	clearAccessTokenCache();
	elsewhere.requests.length = 0;
	redirecting.requests.length = 0;
});

describe('token requests follow no redirect', () => {
	it.each([
		[
			'AI Metadata API (POST)',
			() =>
				runNode({
					nodeType: aiProbe,
					parameters: { query: AI_QUERY, maxRetries: 0 },
					credentials: aiCredentials(sandbox, { authUrl: redirecting.baseUrl }),
				}),
		],
		[
			'Organization API (GET)',
			() =>
				runNode({
					nodeType: orgProbe,
					parameters: { query: ORG_QUERY, maxRetries: 0 },
					credentials: orgCredentials(sandbox, { authUrl: redirecting.baseUrl }),
				}),
		],
	])(
		'%s: a redirect is an error naming the other host, and nothing reaches it',
		async (service, run) => {
			const result = await run();
			const host = new URL(elsewhere.baseUrl).host;
			expect(result.error?.message).toContain(
				`${service.split(' (')[0]}: the token endpoint ${redirecting.baseUrl}/token redirected (HTTP 302) to the host ${host}`,
			);
			expect(result.error?.message).toContain('set the "Token URL"');
			expect(redirecting.requests).toHaveLength(1);
			expect(elsewhere.requests).toHaveLength(0);
		},
	);
});

describe('API requests carry no credential to another origin', () => {
	it('AI Metadata API: a 307 to another origin is refused; the Bearer token never reaches it', async () => {
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: AI_QUERY, maxRetries: 0 },
			credentials: aiCredentials(sandbox, { graphqlUrl: `${redirecting.baseUrl}/v1/graphql` }),
		});
		expect(result.error?.message).toBe(
			`AI Metadata API: the endpoint redirected (HTTP 307) to ${elsewhere.baseUrl}; only 307 and 308 redirects within the endpoint's own origin are followed, so the token never leaves it`,
		);
		expect(redirecting.requests[0].headers.authorization).toMatch(/^Bearer /);
		expect(elsewhere.requests).toHaveLength(0);
	});

	it.each(['POST', 'GET'])(
		'Organization API with the jwtauth query parameter (%s): the token never reaches the other origin',
		async (method) => {
			const result = await runNode({
				nodeType: orgProbe,
				parameters: { query: ORG_QUERY, method, maxRetries: 0 },
				credentials: orgCredentials(sandbox, {
					apiUrl: `${redirecting.baseUrl}/organisation_v2`,
					jwtPlacement: 'query',
				}),
			});
			expect(result.error?.message).toContain(
				`the endpoint redirected (HTTP 307) to ${elsewhere.baseUrl}`,
			);
			expect(redirecting.requests[0].url.searchParams.get('jwtauth')).toEqual(expect.any(String));
			expect(elsewhere.receivedCredentials()).toBe(false);
			expect(elsewhere.requests).toHaveLength(0);
		},
	);

	it.each([307, 308])(
		'a %i within the same origin is followed, with the token and the same body',
		async (status) => {
			const graphqlPath = new URL(sandbox.ai.graphqlUrl).pathname;
			const moved = await startTestOrigin((request, res, self) => {
				if (request.url.pathname === '/old/graphql')
					return redirect(res, status, `${self.baseUrl}${graphqlPath}`);
				forward(request, res, sandbox.ai.baseUrl);
			});
			try {
				const result = await runNode({
					nodeType: aiProbe,
					parameters: { query: AI_QUERY, maxRetries: 0 },
					credentials: aiCredentials(sandbox, { graphqlUrl: `${moved.baseUrl}/old/graphql` }),
				});
				expect(result.error).toBeUndefined();
				expect(
					(result.outputs[0][0].json.data as { face_tasks: unknown[] }).face_tasks,
				).toHaveLength(1);
				expect(moved.requests.map((request) => request.url.pathname)).toEqual([
					'/old/graphql',
					graphqlPath,
				]);
				expect(moved.requests[1].method).toBe('POST');
				expect(moved.requests[1].body.toString('utf8')).toBe(
					moved.requests[0].body.toString('utf8'),
				);
				expect(moved.requests[1].headers.authorization).toMatch(/^Bearer /);
			} finally {
				await moved.close();
			}
		},
	);

	it.each([302, 301])('a %i within the same origin is an error, not followed', async (status) => {
		const graphqlPath = new URL(sandbox.ai.graphqlUrl).pathname;
		const moved = await startTestOrigin((request, res, self) => {
			if (request.url.pathname === '/old/graphql')
				return redirect(res, status, `${self.baseUrl}${graphqlPath}`);
			forward(request, res, sandbox.ai.baseUrl);
		});
		try {
			const result = await runNode({
				nodeType: aiProbe,
				parameters: { query: AI_QUERY, maxRetries: 0 },
				credentials: aiCredentials(sandbox, { graphqlUrl: `${moved.baseUrl}/old/graphql` }),
			});
			expect(result.error?.name).toBe('NodeApiError');
			expect(result.error?.message).toBe(
				`AI Metadata API: the endpoint redirected (HTTP ${status}) to ${moved.baseUrl}; only 307 and 308 redirects within the endpoint's own origin are followed, so the token never leaves it`,
			);
			expect(moved.requests.map((request) => request.url.pathname)).toEqual(['/old/graphql']);
		} finally {
			await moved.close();
		}
	});
});

/**
 * Sends a credential's `test` request the way n8n's credential test does: through n8n-core's
 * httpRequestWithAuthentication with the request options exactly as the credential declares them.
 */
function credentialTestNode(type: ICredentialType, urlProperty: string): INodeType {
	return {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: 'Test node',
			defaults: { name: 'Credential Test' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: type.name, required: true }],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const credentials = await this.getCredentials(type.name);
			const request = { ...type.test!.request, url: String(credentials[urlProperty]) };
			const body = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				type.name,
				request as never,
			)) as IDataObject;
			return [[{ json: body, pairedItem: { item: 0 } }]];
		},
	};
}

describe('the credential test request', () => {
	it.each([
		[
			'AI Metadata API',
			new ArchiveAiMetadataApi(),
			'graphqlUrl',
			() => aiCredentials(sandbox, { graphqlUrl: `${redirecting.baseUrl}/v1/graphql` }),
		],
		[
			'Organization API',
			new ArchiveOrganizationApi(),
			'apiUrl',
			() => orgCredentials(sandbox, { apiUrl: `${redirecting.baseUrl}/organisation_v2` }),
		],
	])(
		'%s: follows no redirect, so the token never reaches another host',
		async (_service, type, urlProperty, credentials) => {
			const result = await runNode({
				nodeType: credentialTestNode(type, urlProperty),
				parameters: {},
				credentials: credentials(),
			});
			expect(result.error).toBeDefined();
			expect(redirecting.requests).toHaveLength(1);
			expect(elsewhere.requests).toHaveLength(0);
		},
	);
});

describe('plain http to another host', () => {
	const shown = (type: ICredentialType, values: IDataObject) =>
		type.properties
			.filter((property) => property.type === 'notice')
			.filter((property) =>
				NodeHelpers.displayParameter(values as never, property, null, null, values as never),
			)
			.map((property) => property.name);

	it.each([
		['AI Metadata API', new ArchiveAiMetadataApi(), 'graphqlUrl'],
		['Organization API', new ArchiveOrganizationApi(), 'apiUrl'],
	])(
		'%s: the credential form warns for http:// URLs that are not loopback',
		(_service, type, endpoint) => {
			expect(
				shown(type, {
					authUrl: 'https://auth.example.org',
					[endpoint]: 'https://api.example.org/graphql',
				}),
			).toEqual([]);
			expect(
				shown(type, {
					authUrl: 'http://127.0.0.1:4010/auth',
					[endpoint]: 'http://localhost:4010/v1/graphql',
				}),
			).toEqual([]);
			expect(
				shown(type, { authUrl: 'http://[::1]:4010/auth', [endpoint]: 'HTTPS://api.example.org' }),
			).toEqual([]);
			expect(
				shown(type, { authUrl: 'http://auth.example.org', [endpoint]: 'https://api.example.org' }),
			).toEqual(['authUrlInsecureNotice']);
			expect(
				shown(type, {
					authUrl: 'https://auth.example.org',
					[endpoint]: 'HTTP://127.0.0.1.evil.example/graphql',
				}),
			).toEqual([`${endpoint}InsecureNotice`]);
			expect(
				shown(type, {
					authUrl: 'http://localhost.evil.example',
					[endpoint]: 'http://10.0.0.5/graphql',
				}),
			).toEqual(['authUrlInsecureNotice', `${endpoint}InsecureNotice`]);
		},
	);
});
