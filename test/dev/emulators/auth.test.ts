import { startSandbox, type Sandbox } from '../../../dev/emulators/index';
import { aiToken, basic, orgToken, postGraphql } from './testHelpers';

describe('token endpoints', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 20, tokenTtlSeconds: 7200 });
	});
	afterAll(() => sandbox.close());
	afterEach(() => sandbox.faults.clear());

	const aiTokenRequest = (init: { method?: string; auth?: string; body?: string }) =>
		fetch(`${sandbox.ai.authUrl}/token`, {
			method: init.method ?? 'POST',
			headers: {
				...(init.auth ? { authorization: init.auth } : {}),
				'content-type': 'application/x-www-form-urlencoded',
			},
			body: init.method === 'GET' ? undefined : init.body,
		});

	it('AI: POST + Basic + form body issues a bearer token (lifetime capped by tokenTtlSeconds)', async () => {
		const response = await aiTokenRequest({
			auth: basic(sandbox.ai.email, sandbox.ai.password),
			body: 'grant_type=client_credentials&expires_in=3600',
		});
		expect(response.status).toBe(200);
		const body = (await response.json()) as Record<string, unknown>;
		expect(body).toEqual({
			access_token: expect.any(String),
			expires_in: 3600,
			token_type: 'bearer',
		});
		const long = await aiTokenRequest({
			auth: basic(sandbox.ai.email, sandbox.ai.password),
			body: 'grant_type=client_credentials&expires_in=999999',
		});
		expect(((await long.json()) as Record<string, unknown>).expires_in).toBe(7200);
	});

	it('AI: wrong credentials or method -> 401, missing or wrong grant -> 400, all JSON', async () => {
		const good = basic(sandbox.ai.email, sandbox.ai.password);
		const cases: Array<[Parameters<typeof aiTokenRequest>[0], number]> = [
			[{ auth: basic(sandbox.ai.email, 'wrong'), body: 'grant_type=client_credentials' }, 401],
			[{ body: 'grant_type=client_credentials' }, 401],
			[{ method: 'GET', auth: good }, 401],
			[{ auth: good, body: 'expires_in=60' }, 400],
			[{ auth: good, body: 'grant_type=password' }, 400],
		];
		for (const [init, status] of cases) {
			const response = await aiTokenRequest(init);
			expect(response.status).toBe(status);
			expect(((await response.json()) as { error: string }).error).toEqual(expect.any(String));
		}
	});

	it('Org: GET with query parameters and Basic; POST is refused', async () => {
		const token = await orgToken(sandbox, 31536000);
		expect(token.length).toBeGreaterThan(20);
		const post = await fetch(`${sandbox.org.authUrl}/token?grant_type=client_credentials`, {
			method: 'POST',
			headers: { authorization: basic(sandbox.org.username, sandbox.org.password) },
		});
		expect(post.status).toBe(401);
		const wrong = await fetch(`${sandbox.org.authUrl}/token?grant_type=client_credentials`, {
			headers: { authorization: basic('demo', 'nope') },
		});
		expect(wrong.status).toBe(401);
		const noGrant = await fetch(`${sandbox.org.authUrl}/token`, {
			headers: { authorization: basic(sandbox.org.username, sandbox.org.password) },
		});
		expect(noGrant.status).toBe(400);
	});

	it('tokens really expire server-side (requested lifetime and the expireTokensAfterMs fault)', async () => {
		// The emulator runs in this process: its clock is held still and moved by hand, so a busy machine cannot let a
		// token expire before it is first used.
		let nowMs = Date.now();
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => nowMs);
		try {
			const shortLived = await aiToken(sandbox, 1);
			const query = '{ face_tasks(limit: 1) { task_id } }';
			expect((await postGraphql(sandbox.ai.graphqlUrl, shortLived, query)).status).toBe(200);
			nowMs += 999;
			expect((await postGraphql(sandbox.ai.graphqlUrl, shortLived, query)).status).toBe(200);
			nowMs += 1;
			expect((await postGraphql(sandbox.ai.graphqlUrl, shortLived, query)).status).toBe(401);

			const orgTokenValue = await orgToken(sandbox);
			sandbox.faults.set('org', { expireTokensAfterMs: 50 });
			nowMs += 50;
			expect(
				(await postGraphql(sandbox.org.apiUrl, orgTokenValue, '{ persons(limit: 1) { iri } }'))
					.status,
			).toBe(401);
			const fresh = await orgToken(sandbox);
			expect(
				(await postGraphql(sandbox.org.apiUrl, fresh, '{ persons(limit: 1) { iri } }')).status,
			).toBe(200);
		} finally {
			clock.mockRestore();
		}
	});

	it('auth fault modes: html page, non-JSON text and 5xx', async () => {
		const request = () =>
			aiTokenRequest({
				auth: basic(sandbox.ai.email, sandbox.ai.password),
				body: 'grant_type=client_credentials',
			});
		sandbox.faults.set('aiAuth', { html: true });
		const html = await request();
		expect(html.status).toBe(200);
		expect(html.headers.get('content-type')).toContain('text/html');
		expect(await html.text()).toContain('<html');
		sandbox.faults.set('aiAuth', { nonJson: true });
		const text = await request();
		expect(text.headers.get('content-type')).toContain('text/plain');
		await expect(text.json()).rejects.toThrow();
		sandbox.faults.set('orgAuth', { status5xx: { code: 502 } });
		const orgResponse = await fetch(`${sandbox.org.authUrl}/token?grant_type=client_credentials`, {
			headers: { authorization: basic(sandbox.org.username, sandbox.org.password) },
		});
		expect(orgResponse.status).toBe(502);
		const counters = sandbox.counters.get();
		expect(counters.ai.faults['token.html']).toBeGreaterThanOrEqual(1);
		expect(counters.org.faults['token.status5xx']).toBeGreaterThanOrEqual(1);
	});

	it('secrets and tokens never appear in error answers', async () => {
		const response = await aiTokenRequest({
			auth: basic(sandbox.ai.email, 'super-secret-guess'),
			body: 'grant_type=client_credentials',
		});
		const text = await response.text();
		expect(text).not.toContain('super-secret-guess');
		expect(text).not.toContain(sandbox.ai.password);
	});
});
