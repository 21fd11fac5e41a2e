import { clearAccessTokenCache } from '../../../credentials/common/accessToken';
import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { clearSchemaCache } from '../../../nodes/shared/graphql/schemaCache';
import { DEFAULT_RETRY, retryDelayMs } from '../../../nodes/shared/http/retry';
import { startSandbox } from '../../../dev/emulators';
import type { Sandbox } from '../../../dev/emulators';
import { runNode } from '../../../dev/harness/execute';
import { aiCredentials } from '../../../dev/harness/sandboxCredentials';
import { forward, startTestOrigin } from '../../../dev/harness/testOrigin';
import type { ReceivedRequest, TestOrigin } from '../../../dev/harness/testOrigin';

let sandbox: Sandbox;
/** The GraphQL endpoint the node talks to; `answer` decides per request whether it fails or passes on. */
let front: TestOrigin;
let answer: (request: ReceivedRequest) => { status: number; retryAfter?: string } | undefined;

beforeAll(async () => {
	sandbox = await startSandbox({ rows: 10 });
	front = await startTestOrigin((request, res) => {
		const failure = answer(request);
		if (!failure) return forward(request, res, sandbox.ai.baseUrl);
		res.writeHead(failure.status, {
			'content-type': 'application/json',
			...(failure.retryAfter === undefined ? {} : { 'retry-after': failure.retryAfter }),
		});
		res.end('{"error":"busy"}');
	});
});
afterAll(async () => Promise.all([sandbox.close(), front.close()]));
beforeEach(() => {
	clearAccessTokenCache();
	clearSchemaCache();
	front.requests.length = 0;
});

const graphqlUrl = () => `${front.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`;

async function count(maxRetries: number) {
	return await runNode({
		nodeType: new ArchiveAiMetadata(),
		parameters: { resource: 'faceTask', operation: 'count', options: { maxRetries } },
		credentials: aiCredentials(sandbox, { graphqlUrl: graphqlUrl() }),
	});
}

/** Gaps between the arrivals of consecutive requests. */
function gapsAfterRefusals(): number[] {
	const arrivals = front.requests.map((request) => request.receivedAt);
	return arrivals.slice(1).map((at, index) => at - arrivals[index]);
}

describe('Retry-After never removes the backoff', () => {
	it.each([
		['Retry-After: 0', '0'],
		['a Retry-After date in the past', new Date(Date.now() - 3_600_000).toUTCString()],
	])('%s still waits at least the minimum backoff before each retry', async (_case, retryAfter) => {
		let refusals = 0;
		answer = () => (refusals++ < 2 ? { status: 429, retryAfter } : undefined);
		const result = await count(3);
		expect(result.error).toBeUndefined();
		// Two refused introspections, the third passes, then the count query.
		expect(front.requests).toHaveLength(4);
		// A timer never fires early: each retry came at least half the base delay after the refusal.
		for (const gap of gapsAfterRefusals().slice(0, 2))
			expect(gap).toBeGreaterThanOrEqual(DEFAULT_RETRY.baseDelayMs / 2);
	});

	it('the wait grows with each retry even when the server says 0, and never exceeds the cap', () => {
		const policy = { maxRetries: 10, baseDelayMs: 500, maxDelayMs: 30_000 };
		for (let retries = 0; retries < 10; retries++) {
			const delay = retryDelayMs(policy, retries, 0);
			expect(delay).toBeGreaterThanOrEqual(Math.min((500 * 2 ** retries) / 2, 30_000));
			expect(delay).toBeLessThanOrEqual(30_000);
		}
		expect(retryDelayMs(policy, 0, 4_000)).toBeGreaterThanOrEqual(4_000);
	});
});

describe('a Retry-After beyond the cap', () => {
	it('fails at once and says when to try again', async () => {
		answer = () => ({ status: 429, retryAfter: '120' });
		const before = Date.now();
		const result = await count(3);
		expect(front.requests).toHaveLength(1);
		const match =
			/AI Metadata API: too many requests \(HTTP 429\); the server asks to wait 120 s before retrying, longer than the node waits; try again after (\S+)$/.exec(
				result.error?.message ?? '',
			);
		expect(match).not.toBeNull();
		expect(Date.parse(match![1])).toBeGreaterThanOrEqual(before + 120_000);
	});
});
