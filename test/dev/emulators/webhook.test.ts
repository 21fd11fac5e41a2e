import { createServer, type IncomingMessage, type Server } from 'node:http';

import { Webhook } from 'standardwebhooks';

import {
	RETRY_SCHEDULE_SECONDS,
	buildFailureEvent,
	buildSuccessEvent,
	deliverWithRetries,
	generateSecret,
	newMessageId,
	pythonJsonDumps,
	send,
	sign,
} from '../../../dev/emulators/webhook/sender';
import { KNOWN_ANSWER_VECTORS } from '../../../dev/emulators/webhook/fixtures';

describe('webhook signing', () => {
	it.each(KNOWN_ANSWER_VECTORS)(
		'reproduces the known-answer signature for $id',
		({ secret, id, timestamp, body, signature }) => {
			expect(sign(secret, id, timestamp, body)).toBe(signature);
			expect(sign(secret, id, timestamp, Buffer.from(body))).toBe(signature);
		},
	);

	it('serializes like Python json.dumps (separators, \\u escapes, key order)', () => {
		const event = {
			type: 'meemoo.sip.archived',
			timestamp: '2025-09-03T20:26:10.344522Z',
			data: {
				correlation_id: '843e9ba457593d0edf69a24baa0babf3',
				outcome: 'success',
				pid: 'kdleipkyuj',
			},
		};
		expect(pythonJsonDumps(event)).toBe(KNOWN_ANSWER_VECTORS[0].body);
		expect(pythonJsonDumps({ message: 'Café "ß"\n\t😀', n: [1, 2.5, null, true], e: 1e-7 })).toBe(
			'{"message": "Caf\\u00e9 \\"\\u00df\\"\\n\\t\\ud83d\\ude00", "n": [1, 2.5, null, true], "e": 1e-07}',
		);
		expect(pythonJsonDumps({})).toBe('{}');
	});

	it('builds success/failure events of the real shape', () => {
		const success = buildSuccessEvent({ timestamp: new Date('2025-09-03T20:26:10.344Z') });
		expect(success.type).toBe('meemoo.sip.archived');
		expect(success.timestamp).toMatch(/^2025-09-03T20:26:10\.344\d{3}Z$/);
		expect(success.data).toEqual({
			correlation_id: expect.stringMatching(/^[0-9a-f]{32}$/),
			outcome: 'success',
			pid: expect.stringMatching(/^[a-z]{10}$/),
		});
		const failure = buildFailureEvent({ reason: 'missing mets.xml' });
		expect(failure.type).toBe('meemoo.sip.archived');
		expect(failure.data).toEqual({
			correlation_id: expect.any(String),
			outcome: 'failure',
			message: 'sipin.sip-2.validate -- missing mets.xml',
		});
		expect(newMessageId()).toMatch(/^msg_[0-9A-Za-z]{27}$/);
	});
});

interface Received {
	headers: IncomingMessage['headers'];
	body: string;
}

describe('webhook delivery against a verifying receiver', () => {
	let server: Server;
	let url: string;
	const received: Received[] = [];
	const secret = generateSecret(32);
	let answers: number[] = [];

	beforeAll(async () => {
		server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const body = Buffer.concat(chunks).toString('utf8');
				received.push({ headers: req.headers, body });
				let status = answers.shift() ?? 204;
				if (status === 204) {
					try {
						new Webhook(secret).verify(body, req.headers as Record<string, string>);
					} catch {
						status = 401;
					}
				}
				res.writeHead(status).end();
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const address = server.address() as { port: number };
		url = `http://127.0.0.1:${address.port}/hook`;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => {
		received.length = 0;
		answers = [];
	});

	it('a signed event verifies with the standardwebhooks library; the body bytes are Python-style', async () => {
		const result = await send(url, buildSuccessEvent(), { secrets: [secret] });
		expect(result.status).toBe(204);
		expect(received[0].body).toBe(result.body);
		expect(received[0].body).toContain('", "');
		expect(received[0].headers['webhook-timestamp']).toMatch(/^\d+$/);
	});

	it('rotation: one signature per secret, any valid one is enough; decoys are ignored', async () => {
		const result = await send(url, buildFailureEvent(), {
			secrets: [generateSecret(), secret],
			decoySignatures: 2,
		});
		expect(result.signature.split(' ')).toHaveLength(4);
		expect(result.status).toBe(204);
	});

	it('tampered, stale and future requests fail verification', async () => {
		expect((await send(url, buildSuccessEvent(), { secrets: [secret], tamper: true })).status).toBe(
			401,
		);
		expect(
			(await send(url, buildSuccessEvent(), { secrets: [secret], staleSeconds: 600 })).status,
		).toBe(401);
		expect(
			(await send(url, buildSuccessEvent(), { secrets: [secret], futureSeconds: 600 })).status,
		).toBe(401);
	});

	it('retries after non-2xx keep the webhook-id with a fresh signature, following the compressed schedule', async () => {
		answers = [500, 503];
		const delivery = await deliverWithRetries(url, buildSuccessEvent(), {
			secrets: [secret],
			compress: 1_000_000,
			timestamp: 1_700_000_000,
		});
		expect(delivery.delivered).toBe(false);
		// Fixed timestamps are old, so the third (otherwise fine) attempt is refused by the verifier too.
		expect(delivery.attempts.length).toBe(RETRY_SCHEDULE_SECONDS.length + 1);
		expect(new Set(delivery.attempts.map((attempt) => attempt.id)).size).toBe(1);
		expect(new Set(delivery.attempts.map((attempt) => attempt.signature)).size).toBe(
			delivery.attempts.length,
		);

		answers = [500];
		const second = await deliverWithRetries(url, buildSuccessEvent(), {
			secrets: [secret],
			compress: 1_000_000,
		});
		expect(second.delivered).toBe(true);
		expect(second.attempts.map((attempt) => attempt.status)).toEqual([500, 204]);
		expect(received.slice(-2).map((request) => request.headers['webhook-id'])).toEqual([
			second.attempts[0].id,
			second.attempts[0].id,
		]);
	});
});
