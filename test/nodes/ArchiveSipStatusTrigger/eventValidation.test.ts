import { postBytes, postRaw } from '../../../dev/harness/webhook';
import { signedHeaders, sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import {
	NOW_SECONDS,
	SECRET,
	deliver,
	errorOf,
	nextId,
	onlyItem,
	startTrigger,
	useTriggerHarness,
} from './triggerSetup';

useTriggerHarness();

describe('event validation', () => {
	it('1 MiB is the default size limit', async () => {
		const trigger = await startTrigger();
		const fits = sipEventBody({
			extraData: `, "note": "${'x'.repeat(1024 * 1024 - Buffer.byteLength(sipEventBody()) - 12)}"`,
		});
		expect(Buffer.byteLength(fits)).toBe(1024 * 1024);
		expect((await deliver(trigger, fits)).status).toBe(204);
		const tooLarge = sipEventBody({ extraData: `, "note": "${'x'.repeat(1024 * 1024)}"` });
		expect((await deliver(trigger, tooLarge)).status).toBe(400);
	});

	it('answers 400 to a multipart body, whose raw bytes n8n does not keep, before reading it', async () => {
		const trigger = await startTrigger();
		const boundary = 'sip-boundary';
		const body = `--${boundary}\r\ncontent-disposition: form-data; name="event"\r\n\r\n${sipEventBody()}\r\n--${boundary}--\r\n`;
		const headers = {
			...signedHeaders(SECRET, nextId(), NOW_SECONDS, body),
			'content-type': `multipart/form-data; boundary=${boundary}`,
		};
		const answer = await postRaw(trigger.url, body, headers);
		expect(answer.status).toBe(400);
		expect(errorOf(answer)).toBe(
			'multipart bodies are not accepted: send the event as application/json',
		);
		expect(trigger.runs()).toHaveLength(0);
	});

	it('answers 400 for a body that is not JSON', async () => {
		const trigger = await startTrigger();
		const answer = await deliver(trigger, '{"type": "x.sip.y",');
		expect(answer.status).toBe(400);
		expect(answer.headers['content-type']).toMatch(/^application\/json/);
		expect(errorOf(answer)).toBe('body must be valid JSON');
		expect(trigger.runs()).toHaveLength(0);
	});

	const valid = JSON.parse(sipEventBody()) as Record<string, unknown> & {
		data: Record<string, unknown>;
	};
	const withData = (data: Record<string, unknown>) =>
		JSON.stringify({ ...valid, data: { ...valid.data, ...data } });
	const without = (field: string) => JSON.stringify({ ...valid, [field]: undefined });
	const withoutData = (field: string) =>
		JSON.stringify({ ...valid, data: { ...valid.data, [field]: undefined } });

	it.each([
		['an array body', '[1, 2]', 'body must be a JSON object'],
		['null', 'null', 'body must be a JSON object'],
		['a missing type', without('type'), 'type must be a non-empty string'],
		['an empty type', JSON.stringify({ ...valid, type: '' }), 'type must be a non-empty string'],
		['a numeric type', JSON.stringify({ ...valid, type: 5 }), 'type must be a non-empty string'],
		['a missing data', without('data'), 'data must be an object'],
		['a string data', JSON.stringify({ ...valid, data: 'x' }), 'data must be an object'],
		[
			'a missing correlation_id',
			withoutData('correlation_id'),
			'data.correlation_id must be a non-empty string',
		],
		[
			'an empty correlation_id',
			withData({ correlation_id: '' }),
			'data.correlation_id must be a non-empty string',
		],
		['a missing outcome', withoutData('outcome'), 'data.outcome must be one of success, failure'],
		[
			'an unknown outcome',
			withData({ outcome: 'archived' }),
			'data.outcome must be one of success, failure',
		],
		['a numeric pid', withData({ pid: 12 }), 'data.pid must be a string'],
		['an object message', withData({ message: { text: 'x' } }), 'data.message must be a string'],
	])('answers 400 naming the problem for %s', async (_label, body, error) => {
		const trigger = await startTrigger();
		const answer = await deliver(trigger, body);
		expect(answer.status).toBe(400);
		expect(JSON.parse(answer.body)).toEqual({ error });
		expect(trigger.runs()).toHaveLength(0);
	});

	it.each([
		['+0000', '2025-09-03T20:26:10.344522+0000', '2025-09-03T20:26:10.344522Z'],
		['no zone (read as UTC)', '2025-09-03T20:26:10', '2025-09-03T20:26:10Z'],
		['a date only', '2025-09-03', null],
		['an impossible date', '2025-02-30T10:00:00Z', null],
		['a number', 1756931170, null],
		['no timestamp at all', undefined, null],
	])(
		'accepts a signed event whose timestamp has %s, passing it on as sent',
		async (_label, timestamp, utc) => {
			const trigger = await startTrigger();
			const body = JSON.stringify({ ...valid, timestamp });
			expect((await deliver(trigger, body)).status).toBe(204);
			expect(onlyItem(trigger).json).toMatchObject({
				timestamp: timestamp ?? null,
				timestamp_utc: utc,
			});
		},
	);

	it('accepts offsets and missing optional fields', async () => {
		const trigger = await startTrigger();
		const body = JSON.stringify({
			type: 'service.sip.archived',
			timestamp: '2025-09-03T22:26:10+02:00',
			data: { correlation_id: 'c-1', outcome: 'failure' },
		});
		expect((await deliver(trigger, body)).status).toBe(204);
		expect(onlyItem(trigger).json).toMatchObject({ pid: null, message: null, outcome: 'failure' });
	});

	it('answers 400 for a declared Content-Length over the limit without waiting for the body', async () => {
		// Lazy: the body is left unread, as n8n leaves it for content types it does not parse.
		const trigger = await startTrigger({
			rawBody: 'lazy',
			parameters: { options: { maxBodySizeKib: 1 } },
		});
		const answer = await postBytes(
			trigger.url,
			[
				['content-type', 'application/octet-stream'],
				['content-length', String(10 * 1024 * 1024)],
			],
			Buffer.from('{"type": '),
			{ endBody: false },
		);
		expect(answer.status).toBe(400);
		expect(errorOf(answer)).toBe('body exceeds the maximum size of 1024 bytes');
		expect(trigger.runs()).toHaveLength(0);
	});

	it('stops reading a chunked body (no Content-Length) once it passes the limit', async () => {
		const trigger = await startTrigger({
			rawBody: 'lazy',
			parameters: { options: { maxBodySizeKib: 1 } },
		});
		const chunk = 'x'.repeat(2048);
		const answer = await postBytes(
			trigger.url,
			[['transfer-encoding', 'chunked']],
			Buffer.from(`${chunk.length.toString(16)}\r\n${chunk}\r\n`),
			{ endBody: false },
		);
		expect(answer.status).toBe(400);
		expect(errorOf(answer)).toBe('body exceeds the maximum size of 1024 bytes');
	});

	it('reads an unread body itself and still verifies it (lazy, within the limit)', async () => {
		const trigger = await startTrigger({
			rawBody: 'lazy',
			parameters: { options: { maxBodySizeKib: 1 } },
		});
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('answers 400 (never 413) for a body over the size limit, signed or not', async () => {
		const trigger = await startTrigger({ parameters: { options: { maxBodySizeKib: 1 } } });
		const padding = 'x'.repeat(1024);
		const body = sipEventBody({ extraData: `, "note": "${padding}"` });
		const answer = await deliver(trigger, body);
		expect(answer.status).toBe(400);
		expect(errorOf(answer)).toBe('body exceeds the maximum size of 1024 bytes');
		const unsigned = await postRaw(trigger.url, body, { 'content-type': 'application/json' });
		expect(unsigned.status).toBe(400);
		expect(trigger.runs()).toHaveLength(0);

		const justFits = sipEventBody({
			extraData: `, "note": "${'x'.repeat(1024 - Buffer.byteLength(sipEventBody()) - 12)}"`,
		});
		expect(Buffer.byteLength(justFits)).toBe(1024);
		expect((await deliver(trigger, justFits)).status).toBe(204);
	});
});
