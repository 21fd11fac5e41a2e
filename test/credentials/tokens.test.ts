import type { IDataObject } from 'n8n-workflow';

import { ArchiveAiMetadataApi } from '../../credentials/ArchiveAiMetadataApi.credentials';
import { ArchiveOrganizationApi } from '../../credentials/ArchiveOrganizationApi.credentials';
import { clearAccessTokenCache } from '../../credentials/common/accessToken';
import { startSandbox } from '../../dev/emulators';
import type { Sandbox } from '../../dev/emulators';
import { runNode } from '../../dev/harness/execute';
import { graphqlProbe } from '../../dev/harness/graphqlProbe';
import { AI_METADATA_SERVICE } from '../../nodes/ArchiveAiMetadata/api/client';
import { ORGANIZATION_SERVICE } from '../../nodes/ArchiveOrganization/api/resources';
import {
	aiCredentials as sandboxAiCredentials,
	orgCredentials as sandboxOrgCredentials,
} from '../../dev/harness/sandboxCredentials';
import { forward, startTestOrigin } from '../../dev/harness/testOrigin';

const aiProbe = graphqlProbe(AI_METADATA_SERVICE);
const orgProbe = graphqlProbe(ORGANIZATION_SERVICE);

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rows: 200 });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
	clearAccessTokenCache();
	sandbox.faults.clear();
	sandbox.counters.reset();
});

const aiCredentials = (overrides: IDataObject = {}) => sandboxAiCredentials(sandbox, overrides);
const orgCredentials = (overrides: IDataObject = {}) => sandboxOrgCredentials(sandbox, overrides);

const AI_QUERY = 'query Probe { face_tasks(limit: 2, order_by: {task_id: asc}) { task_id } }';
const ORG_QUERY = 'query Probe { contentpartners(limit: 2, offset: 0) { id } }';

describe('AI Metadata API credential', () => {
	it('fetches one token (POST, Basic, form) and reuses it across executions until it is rejected', async () => {
		const credentials = aiCredentials();
		for (let run = 0; run < 5; run++) {
			const result = await runNode({
				nodeType: aiProbe,
				parameters: { query: AI_QUERY },
				input: [{}, {}],
				credentials,
			});
			expect(result.error).toBeUndefined();
			expect((result.outputs[0][0].json.data as { face_tasks: unknown[] }).face_tasks).toHaveLength(
				2,
			);
		}
		const counters = sandbox.counters.get().ai;
		expect(counters.requests.token).toBe(1);
		expect(counters.requests.graphql).toBe(10);
		expect(credentials.store.get('archiveAiMetadataApi')?.accessToken).toEqual(expect.any(String));
	});

	it('refreshes once after the token expired and retries the request', async () => {
		const credentials = aiCredentials();
		await runNode({ nodeType: aiProbe, parameters: { query: AI_QUERY }, credentials });
		const first = credentials.store.get('archiveAiMetadataApi')?.accessToken;
		sandbox.revokeTokens();
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: AI_QUERY },
			credentials,
		});
		expect(result.error).toBeUndefined();
		const counters = sandbox.counters.get().ai;
		expect(counters.requests.token).toBe(2);
		// The rejected request is sent once more so that n8n itself refreshes the token (see transport.ts).
		expect(counters.statuses['401']).toBe(2);
		expect(credentials.store.get('archiveAiMetadataApi')?.accessToken).not.toBe(first);
		expect(credentials.preAuthenticationCalls.map((call) => call.expired)).toEqual([false, true]);
	});

	it('shares one token request between concurrent requests of one process', async () => {
		const credentials = aiCredentials();
		const runs = await Promise.all(
			[1, 2, 3, 4].map(() =>
				runNode({ nodeType: aiProbe, parameters: { query: AI_QUERY }, credentials }),
			),
		);
		expect(runs.every((run) => run.error === undefined)).toBe(true);
		expect(sandbox.counters.get().ai.requests.token).toBe(1);
	});

	it.each([
		[
			'a wrong password',
			{ password: 'wrong-password' },
			/refused the credential's "E-Mail" and "Password" \(HTTP 401\)/,
		],
		[
			'an unreachable token host',
			{ authUrl: 'http://127.0.0.1:9' },
			/could not reach the token endpoint .* \(connection refused\)\. .* after 1 retry/,
		],
		[
			'a token URL that is not http',
			{ authUrl: 'auth.example.org' },
			/"Token URL" must be an http\(s\) URL/,
		],
	])('explains %s without echoing the password', async (_case, overrides, message) => {
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: AI_QUERY, maxRetries: 1 },
			credentials: aiCredentials(overrides),
		});
		expect(result.error?.message).toMatch(message);
		const everything = JSON.stringify({
			error: result.error,
			message: result.error?.message,
			description: result.error?.description,
		});
		expect(everything).not.toContain('demo-password');
		expect(everything).not.toContain('wrong-password');
		expect(everything).not.toContain(
			Buffer.from(`${sandbox.ai.email}:demo-password`).toString('base64'),
		);
	});

	it.each([
		['an HTML page', { html: true }, /did not answer JSON \(it sent an HTML page/],
		['a non-JSON body', { nonJson: true }, /did not answer JSON$/],
		[
			'a server error',
			{ status5xx: { code: 503 } },
			/answered HTTP 503: Injected 503 after 1 retry/,
		],
	])('explains a token endpoint that answers %s', async (_case, plan, message) => {
		sandbox.faults.set('aiAuth', plan);
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: AI_QUERY, maxRetries: 1 },
			credentials: aiCredentials(),
		});
		expect(result.error?.message).toMatch(message);
		expect(sandbox.counters.get().ai.requests.graphql ?? 0).toBe(0);
	});

	it('offers "Send Token As" and sends the token as the jwtauth query parameter when so configured', async () => {
		const property = new ArchiveAiMetadataApi().properties.find(
			(candidate) => candidate.name === 'jwtPlacement',
		);
		expect(property).toMatchObject({ displayName: 'Send Token As', default: 'header' });
		const recorder = await startTestOrigin((request, res) =>
			forward(request, res, sandbox.ai.baseUrl),
		);
		try {
			const credentials = aiCredentials({
				jwtPlacement: 'query',
				graphqlUrl: `${recorder.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`,
			});
			const result = await runNode({
				nodeType: aiProbe,
				parameters: { query: AI_QUERY },
				credentials,
			});
			expect(result.error).toBeUndefined();
			const [sent] = recorder.requests;
			expect(sent.url.searchParams.get('jwtauth')).toBe(
				credentials.store.get('archiveAiMetadataApi')?.accessToken,
			);
			expect(sent.headers.authorization).toBeUndefined();
		} finally {
			await recorder.close();
		}
	});

	it('passes the credential test request (preAuthentication + authenticate + test request)', async () => {
		const credential = new ArchiveAiMetadataApi();
		const query = (credential.test.request.body as { query: string }).query;
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query },
			credentials: aiCredentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json.data).toEqual({ __typename: 'query_root' });
	});
});

describe('Organization API credential', () => {
	it('fetches its token with GET and query parameters, and sends it as a Bearer header', async () => {
		const credentials = orgCredentials();
		for (let run = 0; run < 3; run++) {
			const result = await runNode({
				nodeType: orgProbe,
				parameters: { query: ORG_QUERY },
				credentials,
			});
			expect(result.error).toBeUndefined();
			expect(
				(result.outputs[0][0].json.data as { contentpartners: unknown[] }).contentpartners,
			).toHaveLength(2);
		}
		expect(sandbox.counters.get().org.requests.token).toBe(1);
	});

	it('sends the token as the jwtauth query parameter when so configured, by POST and by GET', async () => {
		const credentials = orgCredentials({ jwtPlacement: 'query' });
		for (const method of ['POST', 'GET']) {
			const result = await runNode({
				nodeType: orgProbe,
				parameters: { query: ORG_QUERY, method },
				credentials,
			});
			expect(result.error).toBeUndefined();
		}
		expect(sandbox.counters.get().org.statuses['401'] ?? 0).toBe(0);
	});

	it('refreshes once after the token expired', async () => {
		const credentials = orgCredentials();
		await runNode({ nodeType: orgProbe, parameters: { query: ORG_QUERY }, credentials });
		sandbox.revokeTokens();
		const result = await runNode({
			nodeType: orgProbe,
			parameters: { query: ORG_QUERY },
			credentials,
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.counters.get().org.requests.token).toBe(2);
	});

	it('explains a wrong password without echoing it', async () => {
		const result = await runNode({
			nodeType: orgProbe,
			parameters: { query: ORG_QUERY },
			credentials: orgCredentials({ password: 'nope-nope' }),
		});
		expect(result.error?.message).toMatch(
			/Organization API: the token endpoint refused the credential's "Username" and "Password"/,
		);
		expect(JSON.stringify(result.error)).not.toContain('nope-nope');
	});

	it('passes the credential test request', async () => {
		const credential = new ArchiveOrganizationApi();
		const query = (credential.test.request.body as { query: string }).query;
		const result = await runNode({
			nodeType: orgProbe,
			parameters: { query },
			credentials: orgCredentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json.data).toEqual({ __typename: 'Query' });
	});
});
