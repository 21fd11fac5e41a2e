import type { Sandbox } from '../../../dev/emulators';
import { orgCredentials } from '../../../dev/harness/sandboxCredentials';
import {
	aiCredentials,
	jsonOf,
	resetState,
	runAi,
	withSandbox,
} from '../ArchiveAiMetadata/helpers';
import { runOrganizationNode } from '../ArchiveOrganization/helpers';

// The action nodes' client decrypts its credential once and hands it to n8n with every request. n8n would otherwise
// read and decrypt it again for every page of a Return All (for item 0 as well, so nothing item-specific is gained).
// A token refreshed after a 401 is written into that copy, so the later pages use it, and n8n saves it.

const AI_TYPE = 'archiveAiMetadataApi';
const ORG_TYPE = 'archiveOrganizationApi';

describe('action nodes: the credential is decrypted once per client, not per request', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 300 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('Archive AI Metadata, Return All of many pages: one decryption', async () => {
		const credentials = aiCredentials(sandbox);
		const result = await runAi(
			sandbox,
			{
				resource: 'faceTask',
				operation: 'getAll',
				returnAll: true,
				options: { pageSize: 20, maxConcurrency: 4 },
			},
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(300);
		expect(sandbox.counters.get().ai.requests.graphql ?? 0).toBeGreaterThan(15);
		expect(credentials.decryptions).toEqual([AI_TYPE]);
	});

	it('Archive AI Metadata: a token revoked mid-run is refreshed once and used for every later page', async () => {
		const credentials = aiCredentials(sandbox);
		const warmUp = await runAi(
			sandbox,
			{ resource: 'faceTask', operation: 'count' },
			{ credentials },
		);
		expect(warmUp.error).toBeUndefined();
		const oldToken = credentials.store.get(AI_TYPE)?.accessToken;
		sandbox.revokeTokens();
		const tokensBefore = sandbox.counters.get().ai.tokensIssued;

		const result = await runAi(
			sandbox,
			{
				resource: 'faceTask',
				operation: 'getAll',
				returnAll: true,
				options: { pageSize: 20, maxConcurrency: 1 },
			},
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(300);
		expect(sandbox.counters.get().ai.tokensIssued - tokensBefore).toBe(1);
		expect(credentials.preAuthenticationCalls.filter((call) => call.expired)).toHaveLength(1);
		const newToken = credentials.store.get(AI_TYPE)?.accessToken;
		expect(newToken).toEqual(expect.any(String));
		expect(newToken).not.toBe(oldToken);
	});

	it('Archive Organization, Return All across pages: one decryption', async () => {
		const credentials = orgCredentials(sandbox);
		const result = await runOrganizationNode(
			sandbox,
			{
				resource: 'organization',
				operation: 'getAll',
				returnAll: true,
				options: { pageSize: 50, maxConcurrency: 3 },
			},
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).length).toBeGreaterThan(200);
		expect(sandbox.counters.get().org.requests.graphql ?? 0).toBeGreaterThan(4);
		expect(credentials.decryptions).toEqual([ORG_TYPE]);
	});
});
