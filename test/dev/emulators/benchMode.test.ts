import { startSandbox, type Sandbox } from '../../../dev/emulators/index';
import { ResponseCache } from '../../../dev/emulators/core/responseCache';
import { aiToken, orgToken } from './testHelpers';

/**
 * Bench mode serves stored bytes: they must be the very bytes the normal emulator answers for the same request,
 * also after the data changed, and answers that differ per call by design must never be stored.
 */

/** A face_tasks page as the emulator answers it. */
interface FaceTasksAnswer {
	data: { face_tasks: unknown[] };
}

interface RawAnswer {
	status: number;
	contentType: string | null;
	bytes: Buffer;
}

async function post(url: string, token: string, body: unknown): Promise<RawAnswer> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return {
		status: response.status,
		contentType: response.headers.get('content-type'),
		bytes: Buffer.from(await response.arrayBuffer()),
	};
}

const PAGE_QUERY = `query Page($limit: Int!, $offset: Int!) {
	face_tasks(limit: $limit, offset: $offset, order_by: [{ task_id: asc }]) { task_id pid processed_time }
}`;
const ORG_QUERY = `query Orgs($offset: Int, $limit: Int) { organizations(offset: $offset, limit: $limit) { id iri } }`;

describe('emulator bench mode', () => {
	let normal: Sandbox;
	let bench: Sandbox;
	const tokens = { normalAi: '', benchAi: '', normalOrg: '', benchOrg: '' };

	beforeAll(async () => {
		normal = await startSandbox({ rows: 300, seed: 5 });
		bench = await startSandbox({ rows: 300, seed: 5, benchMode: true });
		tokens.normalAi = await aiToken(normal);
		tokens.benchAi = await aiToken(bench);
		tokens.normalOrg = await orgToken(normal);
		tokens.benchOrg = await orgToken(bench);
	});

	afterAll(async () => {
		await Promise.all([normal.close(), bench.close()]);
	});

	const ai = (sandbox: Sandbox, token: string, body: unknown) =>
		post(sandbox.ai.graphqlUrl, token, body);
	const org = (sandbox: Sandbox, token: string, body: unknown) =>
		post(sandbox.org.apiUrl, token, body);

	it('is off by default', () => {
		expect(normal.responseCaches).toBeUndefined();
		expect(bench.options.benchMode).toBe(true);
	});

	it('answers an AI page with the normal bytes, rendered once', async () => {
		const request = { query: PAGE_QUERY, variables: { limit: 100, offset: 100 } };
		const expected = await ai(normal, tokens.normalAi, request);
		const before = bench.responseCaches?.ai.stats();
		const first = await ai(bench, tokens.benchAi, request);
		const second = await ai(bench, tokens.benchAi, request);
		const after = bench.responseCaches?.ai.stats();

		expect(expected.status).toBe(200);
		expect((JSON.parse(expected.bytes.toString()) as FaceTasksAnswer).data.face_tasks).toHaveLength(
			100,
		);
		for (const answer of [first, second]) {
			expect(answer.status).toBe(200);
			expect(answer.contentType).toBe(expected.contentType);
			expect(answer.bytes.equals(expected.bytes)).toBe(true);
		}
		expect((after?.misses ?? 0) - (before?.misses ?? 0)).toBe(1);
		expect((after?.hits ?? 0) - (before?.hits ?? 0)).toBe(1);
	});

	it('records which requests it answered, in order, and they can be sent again as they were', async () => {
		const cache = bench.responseCaches!.ai;
		const requests = [
			{ query: PAGE_QUERY, variables: { limit: 10, offset: 20 }, operationName: 'Page' },
			{ query: PAGE_QUERY, variables: { offset: 0, limit: 10 } },
			{ query: '{ face_tasks { no_such_column } }' },
		];
		await ai(bench, tokens.benchAi, requests[0]);
		cache.startRecording();
		const first = [];
		for (const request of requests) first.push(await ai(bench, tokens.benchAi, request));
		const recorded = cache.stopRecording();
		await ai(bench, tokens.benchAi, requests[0]);

		// Stored, rendered and failed answers alike; nothing before the start or after the stop.
		expect(recorded).toHaveLength(3);
		expect(cache.stopRecording()).toEqual([]);
		const again = [];
		for (const key of recorded)
			again.push(await ai(bench, tokens.benchAi, ResponseCache.requestOf(key)));
		expect(again.map((answer) => answer.bytes.toString())).toEqual(
			first.map((answer) => answer.bytes.toString()),
		);
		// Variables keep the key order they were sent in (part of the key).
		expect(ResponseCache.requestOf(recorded[1])).toEqual({
			query: PAGE_QUERY,
			variables: { offset: 0, limit: 10 },
			operationName: null,
		});
		expect(Object.keys(ResponseCache.requestOf(recorded[1]).variables as object)).toEqual([
			'offset',
			'limit',
		]);
	});

	it('renders again after the data changed, still as the normal emulator does', async () => {
		const request = { query: PAGE_QUERY, variables: { limit: 300, offset: 0 } };
		const stale = await ai(bench, tokens.benchAi, request);
		normal.data.ai.touch('face_tasks', 3);
		bench.data.ai.touch('face_tasks', 3);
		const expected = await ai(normal, tokens.normalAi, request);
		const fresh = await ai(bench, tokens.benchAi, request);

		expect(fresh.bytes.equals(expected.bytes)).toBe(true);
		expect(fresh.bytes.equals(stale.bytes)).toBe(false);
	});

	it("withholds a view's rows, then serves the stored answers of the whole data again once they are released", async () => {
		const request = { query: PAGE_QUERY, variables: { limit: 50, offset: 0 } };
		const whole = await ai(bench, tokens.benchAi, request);
		const before = bench.responseCaches?.ai.stats();
		const generation = bench.data.ai.generation;

		expect(bench.data.ai.withhold('face_tasks')).toBe(300);
		expect(bench.data.ai.withholding).toBe(true);
		const empty = await ai(bench, tokens.benchAi, request);
		expect((JSON.parse(empty.bytes.toString()) as FaceTasksAnswer).data.face_tasks).toEqual([]);
		expect(() => bench.data.ai.insert('face_tasks')).toThrow(/withheld/);
		expect(() => bench.data.ai.withhold('face_tasks')).toThrow(/withheld already/);

		expect(bench.data.ai.release('face_tasks')).toBe(300);
		expect(bench.data.ai.generation).toBe(generation);
		const again = await ai(bench, tokens.benchAi, request);
		const after = bench.responseCaches?.ai.stats();
		expect(again.bytes.equals(whole.bytes)).toBe(true);
		// The empty answer was rendered, not stored, and left the whole data's answer in place.
		expect((after?.misses ?? 0) - (before?.misses ?? 0)).toBe(1);
		expect((after?.hits ?? 0) - (before?.hits ?? 0)).toBe(1);
		expect(() => bench.data.ai.release('face_tasks')).toThrow(/not withheld/);
	});

	it('gives the data a new generation when it changed while rows were withheld', () => {
		const generation = bench.data.ai.generation;
		bench.data.ai.withhold('face_tasks');
		bench.data.ai.touch('speech_tasks', 1);
		bench.data.ai.release('face_tasks');
		expect(bench.data.ai.generation).not.toBe(generation);
		expect(bench.data.ai.withholding).toBe(false);
	});

	it('does not store errors', async () => {
		const request = { query: '{ face_tasks { no_such_column } }' };
		const expected = await ai(normal, tokens.normalAi, request);
		const before = bench.responseCaches?.ai.stats();
		const answers = [
			await ai(bench, tokens.benchAi, request),
			await ai(bench, tokens.benchAi, request),
		];
		const after = bench.responseCaches?.ai.stats();

		for (const answer of answers) expect(answer.bytes.equals(expected.bytes)).toBe(true);
		expect((after?.misses ?? 0) - (before?.misses ?? 0)).toBe(2);
		expect(after?.entries).toBe(before?.entries);
	});

	it('answers an Organization page with the normal bytes and never stores an unordered list', async () => {
		const paged = { query: ORG_QUERY, variables: { offset: 500, limit: 500 } };
		const expected = await org(normal, tokens.normalOrg, paged);
		const first = await org(bench, tokens.benchOrg, paged);
		const second = await org(bench, tokens.benchOrg, paged);
		expect(first.bytes.equals(expected.bytes)).toBe(true);
		expect(second.bytes.equals(expected.bytes)).toBe(true);
		expect(bench.responseCaches?.org.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });

		// Without offset the service's order is unspecified: each call is rendered, as the normal emulator does.
		const unordered = { query: ORG_QUERY, variables: { limit: 5 } };
		const normalAnswers = [
			await org(normal, tokens.normalOrg, unordered),
			await org(normal, tokens.normalOrg, unordered),
		];
		const benchAnswers = [
			await org(bench, tokens.benchOrg, unordered),
			await org(bench, tokens.benchOrg, unordered),
		];
		expect(benchAnswers[0].bytes.equals(normalAnswers[0].bytes)).toBe(true);
		expect(benchAnswers[1].bytes.equals(normalAnswers[1].bytes)).toBe(true);
		expect(bench.responseCaches?.org.stats()).toMatchObject({ hits: 1, misses: 3, entries: 1 });
	});
});
