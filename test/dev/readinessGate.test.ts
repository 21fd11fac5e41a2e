import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ReadinessGate } from '../../dev/e2e/lib/readiness-gate';

/** A stand-in for n8n: answers readiness as told, and 200 "starting up" to everything else while not migrated. */
async function fakeN8n(state: {
	ready: boolean;
}): Promise<{ server: Server; url: string; posts: string[] }> {
	const posts: string[] = [];
	const server = createServer((req, res) => {
		if (req.url === '/healthz/readiness') {
			res.writeHead(state.ready ? 200 : 503).end();
			return;
		}
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (!state.ready) {
				res.writeHead(200).end('n8n is starting up. Please wait');
				return;
			}
			posts.push(`${req.method} ${req.url} ${req.headers['webhook-id']} ${Buffer.concat(chunks)}`);
			res.writeHead(204, { 'x-answer': 'trigger' }).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posts };
}

async function post(url: string): Promise<{ status: number; body: string; answer: string | null }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
		body: '{"a":1}',
	});
	return {
		status: response.status,
		body: await response.text(),
		answer: response.headers.get('x-answer'),
	};
}

describe('ReadinessGate (fault runs: the sender behind a readiness check)', () => {
	it("answers 503 while n8n is not ready, so n8n's start-up 200 never reaches the sender", async () => {
		const state = { ready: false };
		const n8n = await fakeN8n(state);
		const gate = await ReadinessGate.start(n8n.url);
		try {
			expect(await post(`${n8n.url}/webhook/x`)).toMatchObject({ status: 200 });
			expect(await post(`${gate.baseUrl}/webhook/x`)).toMatchObject({ status: 503 });
			expect(gate.refused.notReady).toBe(1);
			expect(n8n.posts).toEqual([]);

			state.ready = true;
			expect(await post(`${gate.baseUrl}/webhook/x?q=1`)).toEqual({
				status: 204,
				body: '',
				answer: 'trigger',
			});
			expect(n8n.posts).toEqual(['POST /webhook/x?q=1 msg_1 {"a":1}']);
		} finally {
			await gate.close();
			n8n.server.close();
		}
	});

	it('answers 503 when n8n is gone (its readiness probe fails)', async () => {
		const n8n = await fakeN8n({ ready: true });
		const gate = await ReadinessGate.start(n8n.url);
		await new Promise<void>((resolve) => n8n.server.close(() => resolve()));
		try {
			expect((await post(`${gate.baseUrl}/webhook/x`)).status).toBe(503);
		} finally {
			await gate.close();
		}
	});
});
