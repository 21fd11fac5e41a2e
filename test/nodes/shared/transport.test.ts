import { clearAccessTokenCache } from '../../../credentials/common/accessToken';
import { parseRetryAfter } from '../../../nodes/shared/http/retry';
import { startSandbox } from '../../../dev/emulators';
import type { Sandbox } from '../../../dev/emulators';
import { runNode } from '../../../dev/harness/execute';
import { graphqlProbe } from '../../../dev/harness/graphqlProbe';
import { AI_METADATA_SERVICE } from '../../../nodes/ArchiveAiMetadata/api/client';
import { ORGANIZATION_SERVICE } from '../../../nodes/ArchiveOrganization/api/resources';
import { aiCredentials, orgCredentials } from '../../../dev/harness/sandboxCredentials';
import { orgToken, postGraphql } from '../../dev/emulators/testHelpers';

const aiProbe = graphqlProbe(AI_METADATA_SERVICE);
const orgProbe = graphqlProbe(ORGANIZATION_SERVICE);

let sandbox: Sandbox;
const ai = () => aiCredentials(sandbox);
const org = () => orgCredentials(sandbox);

beforeAll(async () => {
	sandbox = await startSandbox({ rows: 2500 });
});
afterAll(async () => sandbox.close());
/** Paging may leave a few look-ahead requests in flight when a run ends; let them land before counting anew. */
async function settle(): Promise<void> {
	let before = JSON.stringify(sandbox.counters.get());
	for (;;) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		const now = JSON.stringify(sandbox.counters.get());
		if (now === before) return;
		before = now;
	}
}

beforeEach(async () => {
	await settle();
	clearAccessTokenCache();
	sandbox.faults.clear();
	sandbox.counters.reset();
});

const PAGE_QUERY =
	'query Page($limit: Int!, $offset: Int!) { face_tasks(limit: $limit, offset: $offset, order_by: [{task_id: asc}]) { task_id } }';

describe('GraphQL transport', () => {
	it('retries 429 (honouring Retry-After), 5xx and dropped connections, and the paged result stays exact', async () => {
		sandbox.faults.set('ai', {
			status429: { every: 5, retryAfter: 1 },
			status5xx: { every: 7, code: 502 },
			dropConnection: { every: 11 },
		});
		const started = Date.now();
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: PAGE_QUERY, pageField: 'face_tasks', pageSize: 100, concurrency: 4 },
			credentials: ai(),
		});
		expect(result.error).toBeUndefined();
		const ids = (result.outputs[0][0].json.rows as Array<{ task_id: string }>).map(
			(row) => row.task_id,
		);
		const expected = sandbox.data.ai
			.records('face_tasks', ['task_id'])
			.map((row) => String(row.task_id))
			.sort();
		expect(ids).toEqual(expected);
		const counters = sandbox.counters.get().ai;
		expect(counters.faults['graphql.status429']).toBeGreaterThan(0);
		expect(counters.faults['graphql.status5xx']).toBeGreaterThan(0);
		expect(counters.faults['graphql.dropConnection']).toBeGreaterThan(0);
		// Retry-After: 1 was waited for at least once.
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
	});

	it('gives up after the configured retries with the status in the message', async () => {
		sandbox.faults.set('ai', { status5xx: { every: 1, code: 503 } });
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: '{ __typename }', maxRetries: 2 },
			credentials: ai(),
		});
		expect(result.error?.message).toBe(
			'AI Metadata API: the server failed (HTTP 503) after 2 retries',
		);
		expect(sandbox.counters.get().ai.requests.graphql).toBe(3);
	});

	it('turns Hasura errors (HTTP 200, no data) into a NodeApiError with message, code and path, without retrying', async () => {
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: '{ face_tasks { no_such_field } }' },
			credentials: ai(),
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^AI Metadata API: .*no_such_field/);
		expect(result.error?.description).toMatch(/error code "validation-failed"/);
		expect(result.error?.description).toBe('The API answered with error code "validation-failed".');
		expect(sandbox.counters.get().ai.requests.graphql).toBe(1);
	});

	it('turns Apollo validation errors (HTTP 400) and resolver failures (HTTP 200, null data) into NodeApiErrors', async () => {
		const invalid = await runNode({
			nodeType: orgProbe,
			parameters: { query: '{ organizations(offset: 0) { nope } }' },
			credentials: org(),
		});
		expect(invalid.error?.message).toMatch(/^Organization API: Cannot query field "nope"/);
		expect(invalid.error?.description).toMatch(/error code "GRAPHQL_VALIDATION_FAILED"/);
		expect(invalid.error?.httpCode).toBe('400');

		sandbox.faults.set('org', { sparqlDown: true });
		const down = await runNode({
			nodeType: orgProbe,
			parameters: { query: '{ organizations(offset: 0, limit: 1) { id } }' },
			credentials: org(),
		});
		expect(down.error?.message).toBe('Organization API: Unable to query SPARQL service');
		expect(down.error?.description).toMatch(/error code "INTERNAL_SERVER_ERROR", at organizations/);
	});

	it('pages through a silent server cap (500) without losing rows, by POST and by GET', async () => {
		const query =
			'query Page($limit: Int, $offset: Int) { organizations(limit: $limit, offset: $offset) { iri } }';
		const expected = sandbox.data.org.organizations.map((entity) => String(entity.iri)).sort();
		expect(expected.length).toBeGreaterThan(1000);
		for (const method of ['POST', 'GET']) {
			const result = await runNode({
				nodeType: orgProbe,
				parameters: { query, method, pageField: 'organizations', pageSize: 1000, concurrency: 3 },
				credentials: org(),
			});
			expect(result.error).toBeUndefined();
			const iris = (result.outputs[0][0].json.rows as Array<{ iri: string }>).map((row) => row.iri);
			expect(iris).toEqual(expected);
		}
	});

	it('the Organization emulator can fail every Nth query with the SPARQL store error (HTTP 200), never twice in a row', async () => {
		sandbox.faults.set('org', { sparqlDown: { every: 2 } });
		const token = await orgToken(sandbox);
		const outcomes: string[] = [];
		for (let request = 0; request < 4; request++) {
			const answer = await postGraphql(
				sandbox.org.apiUrl,
				token,
				'{ organizations(limit: 1, offset: 0) { id } }',
			);
			expect(answer.status).toBe(200);
			outcomes.push(String(answer.body.errors?.[0]?.extensions?.code ?? 'ok'));
		}
		expect(outcomes).toEqual(['ok', 'INTERNAL_SERVER_ERROR', 'ok', 'INTERNAL_SERVER_ERROR']);
	});

	it('retries "Unable to query SPARQL service" (HTTP 200) like a 5xx, and the paged result stays exact', async () => {
		sandbox.faults.set('org', { sparqlDown: { every: 3 } });
		const query =
			'query Page($limit: Int, $offset: Int) { organizations(limit: $limit, offset: $offset) { iri } }';
		const result = await runNode({
			nodeType: orgProbe,
			parameters: { query, pageField: 'organizations', pageSize: 200, concurrency: 2 },
			credentials: org(),
		});
		expect(result.error).toBeUndefined();
		const iris = (result.outputs[0][0].json.rows as Array<{ iri: string }>).map((row) => row.iri);
		expect(iris).toEqual(sandbox.data.org.organizations.map((entity) => String(entity.iri)).sort());
		expect(sandbox.counters.get().org.faults['graphql.sparqlDown']).toBeGreaterThan(0);
	});

	it('gives up on a SPARQL store that stays down after the configured retries', async () => {
		sandbox.faults.set('org', { sparqlDown: true });
		const result = await runNode({
			nodeType: orgProbe,
			parameters: { query: '{ organizations(offset: 0, limit: 1) { id } }', maxRetries: 2 },
			credentials: org(),
		});
		expect(result.error?.message).toBe('Organization API: Unable to query SPARQL service');
		expect(sandbox.counters.get().org.requests.graphql).toBe(3);
	});

	it('reads Retry-After as seconds or as an HTTP date', () => {
		expect(parseRetryAfter('2')).toBe(2000);
		expect(parseRetryAfter('0.5')).toBe(500);
		expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
		expect(parseRetryAfter('soon')).toBeUndefined();
		expect(parseRetryAfter(undefined)).toBeUndefined();
	});
});
