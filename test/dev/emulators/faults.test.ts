import { startSandbox, type Sandbox } from '../../../dev/emulators/index';
import { Counters } from '../../../dev/emulators/core/counters';
import { aiToken, orgToken, postGraphql } from './testHelpers';

describe('fault injection, counters and HTTP control', () => {
	let sandbox: Sandbox;
	let token: string;
	const query = '{ face_tasks(limit: 1) { task_id } }';

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 20 });
		token = await aiToken(sandbox);
	});
	afterAll(() => sandbox.close());
	beforeEach(() => {
		sandbox.faults.clear();
		sandbox.counters.reset();
	});

	/** Status of one request, 0 when the connection was dropped. */
	const attempt = async (): Promise<number> => {
		try {
			return (
				await fetch(sandbox.ai.graphqlUrl, {
					method: 'POST',
					headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
					body: JSON.stringify({ query }),
				})
			).status;
		} catch {
			return 0;
		}
	};

	it('fails every Nth request the planned way and the retry right after succeeds', async () => {
		sandbox.faults.set('ai', {
			status429: { every: 3, retryAfter: 2 },
			status5xx: { every: 4, code: 503 },
			dropConnection: { every: 5 },
		});
		const statuses: number[] = [];
		for (let i = 0; i < 20; i++) statuses.push(await attempt());
		// No two failures in a row: a single retry always gets through.
		for (let i = 1; i < statuses.length; i++)
			if (statuses[i - 1] !== 200) expect(statuses[i]).toBe(200);
		expect(statuses).toContain(429);
		expect(statuses).toContain(503);
		expect(statuses).toContain(0);
		const counters = sandbox.counters.get();
		expect(counters.ai.requests.graphql).toBe(20);
		expect(counters.ai.statuses['429']).toBe(statuses.filter((status) => status === 429).length);
		expect(counters.ai.faults['graphql.dropConnection']).toBe(
			statuses.filter((status) => status === 0).length,
		);
	});

	it('sends Retry-After with 429 and is deterministic for the same plan', async () => {
		const run = async () => {
			sandbox.faults.set('ai', { status429: { every: 2, retryAfter: 7 }, status5xx: { every: 3 } });
			const out: number[] = [];
			for (let i = 0; i < 9; i++) out.push(await attempt());
			return out;
		};
		expect(await run()).toEqual(await run());
		sandbox.faults.set('ai', { status429: { every: 1, retryAfter: 7 } });
		const response = await fetch(sandbox.ai.graphqlUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}` },
			body: JSON.stringify({ query }),
		});
		expect(response.status).toBe(429);
		expect(response.headers.get('retry-after')).toBe('7');
	});

	it('slowMs delays but still answers; html/nonJson replace GraphQL answers too', async () => {
		sandbox.faults.set('ai', { slowMs: 30 });
		expect(await attempt()).toBe(200);
		sandbox.faults.set('ai', { html: { every: 1 } });
		const html = await postGraphqlRaw();
		expect(html.contentType).toContain('text/html');
		sandbox.faults.set('ai', { nonJson: true });
		expect((await postGraphqlRaw()).contentType).toContain('text/plain');
	});

	const postGraphqlRaw = async () => {
		const response = await fetch(sandbox.ai.graphqlUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}` },
			body: JSON.stringify({ query }),
		});
		await response.text();
		return { status: response.status, contentType: response.headers.get('content-type') ?? '' };
	};

	it('is steerable over HTTP: /__sandbox/faults, /counters, /reset, /touch', async () => {
		const control = (server: string, path: string, body?: unknown) =>
			fetch(
				`${server}/__sandbox/${path}`,
				body === undefined
					? undefined
					: {
							method: 'POST',
							body: JSON.stringify(body),
							headers: { 'content-type': 'application/json' },
						},
			);
		const set = await control(sandbox.org.baseUrl, 'faults', {
			org: { status5xx: { every: 1, code: 500 } },
		});
		expect(set.status).toBe(200);
		const orgTokenValue = await orgToken(sandbox);
		expect(
			(
				await postGraphql(sandbox.org.apiUrl, orgTokenValue, '{ persons(limit: 1) { iri } }').catch(
					() => ({ status: -1 }),
				)
			).status,
		).toBe(500);
		const counters = (await (await control(sandbox.ai.baseUrl, 'counters')).json()) as {
			org: {
				faults: Record<string, number>;
				requests: Record<string, number>;
				tokensIssued: number;
			};
		};
		expect(counters.org.faults['graphql.status5xx']).toBe(1);
		expect(counters.org.tokensIssued).toBe(1);
		expect((await control(sandbox.ai.baseUrl, 'faults', { nope: {} })).status).toBe(400);
		expect((await control(sandbox.org.baseUrl, 'reset', {})).status).toBe(200);
		expect(sandbox.faults.get('org')).toEqual({});
		expect(sandbox.counters.get().org.requests).toEqual({});
		const touched = (await (
			await control(sandbox.ai.baseUrl, 'touch', { view: 'speech_tasks', count: 2 })
		).json()) as { touched: Array<{ task_id: string }> };
		expect(touched.touched).toHaveLength(2);
	});
});

describe('Counters: first request since watching', () => {
	it('tells the first request of a service, and of one endpoint', () => {
		const counters = new Counters();
		expect(counters.firstRequestAt('ai')).toBeUndefined();
		const before = Date.now();
		counters.request('ai', 'token');
		counters.request('ai', 'graphql');
		const token = counters.firstRequestAt('ai', 'token')!;
		expect(token).toBeGreaterThanOrEqual(before);
		expect(counters.firstRequestAt('ai')).toBe(token);
		expect(counters.firstRequestAt('ai', 'graphql')).toBeGreaterThanOrEqual(token);
		expect(counters.firstRequestAt('org')).toBeUndefined();

		counters.watchFirstRequest();
		expect(counters.firstRequestAt('ai')).toBeUndefined();
		counters.request('ai', 'graphql');
		expect(counters.firstRequestAt('ai', 'token')).toBeUndefined();
		expect(counters.firstRequestAt('ai', 'graphql')).toBe(counters.firstRequestAt('ai'));
	});
});
