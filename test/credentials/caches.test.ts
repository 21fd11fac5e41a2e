import { httpRequest } from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions';

import {
	MAX_CACHED_TOKENS,
	cachedAccessTokenCount,
	clearAccessTokenCache,
	obtainAccessToken,
} from '../../credentials/common/accessToken';
import { ArchiveAiMetadata } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { BoundedCache } from '../../nodes/shared/boundedCache';
import {
	MAX_CACHED_SCHEMAS,
	cachedSchemaCount,
	clearSchemaCache,
} from '../../nodes/shared/graphql/schemaCache';
import { startSandbox } from '../../dev/emulators';
import type { Sandbox } from '../../dev/emulators';
import { runNode } from '../../dev/harness/execute';
import { aiCredentials } from '../../dev/harness/sandboxCredentials';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ rows: 5 });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
	clearAccessTokenCache();
	clearSchemaCache();
	sandbox.counters.reset();
});

/** n8n-core's own request helper, as n8n hands it to preAuthentication. */
const helpers = { httpRequest };
const tokenFor = async (lifetimeSeconds: number) =>
	await obtainAccessToken(helpers, {
		service: 'AI Metadata API',
		usernameLabel: 'E-Mail',
		method: 'POST',
		authUrl: sandbox.ai.authUrl,
		username: sandbox.ai.email,
		password: sandbox.ai.password,
		lifetimeSeconds,
	});

describe('process-wide caches are bounded', () => {
	it(`keeps at most ${MAX_CACHED_TOKENS} accounts' tokens, dropping the least recently used`, async () => {
		const accounts = MAX_CACHED_TOKENS + 20;
		for (let account = 0; account < accounts; account++) await tokenFor(1000 + account);
		expect(sandbox.counters.get().ai.tokensIssued).toBe(accounts);
		expect(cachedAccessTokenCount()).toBe(MAX_CACHED_TOKENS);
		await tokenFor(1000 + accounts - 1);
		expect(sandbox.counters.get().ai.tokensIssued).toBe(accounts);
		await tokenFor(1000);
		expect(sandbox.counters.get().ai.tokensIssued).toBe(accounts + 1);
	});

	it(`keeps at most ${MAX_CACHED_SCHEMAS} endpoints' schemas`, async () => {
		for (let endpoint = 0; endpoint < MAX_CACHED_SCHEMAS + 6; endpoint++) {
			const credentials = aiCredentials(sandbox, {
				graphqlUrl: `${sandbox.ai.graphqlUrl}?endpoint=${endpoint}`,
			});
			const result = await runNode({
				nodeType: new ArchiveAiMetadata(),
				parameters: { resource: 'faceTask', operation: 'count' },
				credentials,
			});
			expect(result.error).toBeUndefined();
		}
		expect(cachedSchemaCount()).toBe(MAX_CACHED_SCHEMAS);
	});

	it('an entry past its expiry is gone, and expired entries are pruned before used ones', () => {
		const cache = new BoundedCache<string>(2);
		cache.set('a', 'A', 1_000, 0);
		cache.set('b', 'B', 5_000, 0);
		expect(cache.get('a', 999)).toBe('A');
		expect(cache.get('a', 1_000)).toBeUndefined();
		cache.set('a', 'A', 1_000, 0);
		cache.set('c', 'C', 5_000, 2_000);
		expect([cache.get('b', 2_000), cache.get('c', 2_000), cache.size]).toEqual(['B', 'C', 2]);
	});
});
