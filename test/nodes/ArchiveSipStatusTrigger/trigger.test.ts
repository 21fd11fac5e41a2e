import { createHmac, randomBytes } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import { ArchiveSipStatusTrigger } from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import {
	setReplayStore,
	type ReplayStore,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/replayStore';
import {
	FORCED_REREAD_INTERVAL_MS,
	SIGNING_KEY_REUSE_MS,
} from '../../../nodes/ArchiveSipStatusTrigger/verify/signingKeyCache';
import {
	freezeClock,
	postBytes,
	postRaw,
	recordedLogs,
	startWebhookHarness,
	unfreezeClock,
	type HttpAnswer,
	type WebhookHarness,
	type WebhookHarnessOptions,
} from '../../../dev/harness/webhook';
import {
	CREDENTIAL_TYPE,
	KNOWN_ANSWER_VECTORS,
	NODE_TYPE_NAME,
	newSecret,
	sign,
	signedHeaders,
	sipEventBody,
} from './fixtures';

const NOW_SECONDS = 1_758_548_009;
const SECRET = newSecret();

let harnesses: WebhookHarness[] = [];
let workflowCounter = 0;

interface TriggerSetup {
	parameters?: INodeParameters;
	credentials?: ICredentialDataDecryptedObject;
	mode?: WebhookHarnessOptions['mode'];
	rawBody?: WebhookHarnessOptions['rawBody'];
	workflowId?: string;
}

/** Each trigger gets its own workflow id, so replay and rate-limit state never leak between tests. */
async function startTrigger(setup: TriggerSetup = {}): Promise<WebhookHarness> {
	workflowCounter += 1;
	const harness = await startWebhookHarness(new ArchiveSipStatusTrigger(), {
		nodeTypeName: NODE_TYPE_NAME,
		workflowId: setup.workflowId ?? `trigger-test-${workflowCounter}`,
		parameters: setup.parameters,
		credentials: { [CREDENTIAL_TYPE]: setup.credentials ?? { signingSecret: SECRET } },
		mode: setup.mode,
		rawBody: setup.rawBody,
	});
	harnesses.push(harness);
	return harness;
}

let messageCounter = 0;
function nextId(): string {
	messageCounter += 1;
	return `msg_test_${messageCounter}`;
}

async function deliver(
	harness: WebhookHarness,
	body: string,
	options: { secret?: string; id?: string; timestamp?: number } = {},
): Promise<HttpAnswer> {
	const headers = signedHeaders(
		options.secret ?? SECRET,
		options.id ?? nextId(),
		options.timestamp ?? NOW_SECONDS,
		body,
	);
	return await postRaw(harness.url, body, headers);
}

function errorOf(answer: HttpAnswer): string {
	return (JSON.parse(answer.body) as { error: string }).error;
}

function onlyItem(harness: WebhookHarness): INodeExecutionData {
	const runs = harness.runs();
	expect(runs).toHaveLength(1);
	expect(runs[0]).toHaveLength(1);
	expect(runs[0][0]).toHaveLength(1);
	return runs[0][0][0];
}

beforeEach(() => freezeClock(NOW_SECONDS * 1000));

afterEach(async () => {
	unfreezeClock();
	await Promise.all(harnesses.map(async (harness) => await harness.close()));
	harnesses = [];
});

describe('a valid delivery', () => {
	it('is answered 204 with an empty body and emits one flattened item', async () => {
		const trigger = await startTrigger();
		const answer = await deliver(trigger, sipEventBody(), { id: 'msg_valid_1' });

		expect(answer.status).toBe(204);
		expect(answer.body).toBe('');
		expect(onlyItem(trigger).json).toEqual({
			type: 'meemoo.sip.archived',
			timestamp: '2025-09-03T20:26:10.344522Z',
			timestamp_utc: '2025-09-03T20:26:10.344522Z',
			correlation_id: '843e9ba457593d0edf69a24baa0babf3',
			outcome: 'success',
			pid: 'kdleipkyuj',
			message: null,
			webhook_id: 'msg_valid_1',
			received_at: new Date(NOW_SECONDS * 1000).toISOString(),
		});
	});

	it('adds the parsed body as "event" with Include Raw Event', async () => {
		const trigger = await startTrigger({ parameters: { options: { includeRawEvent: true } } });
		const body = sipEventBody({ outcome: 'failure' });
		expect((await deliver(trigger, body)).status).toBe(204);

		const json = onlyItem(trigger).json;
		expect(json.event).toEqual(JSON.parse(body));
		expect(json.message).toBe('sipin.sip-2.validate -- bad checksum');
		expect(json.pid).toBeNull();
	});

	it('works in test mode ("listen for test event")', async () => {
		const trigger = await startTrigger({ mode: 'manual' });
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		expect(onlyItem(trigger).json.outcome).toBe('success');
	});

	it('reads the body through readRawBody() when n8n has not kept it yet', async () => {
		const trigger = await startTrigger({ rawBody: 'lazy' });
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});
});

describe('known-answer vectors (facts.md), clock frozen at each timestamp', () => {
	it.each(KNOWN_ANSWER_VECTORS.map((vector, index) => [index + 1, vector] as const))(
		'vector %i verifies over the exact bytes',
		async (_index, vector) => {
			freezeClock(vector.timestamp * 1000);
			const trigger = await startTrigger({ credentials: { signingSecret: vector.secret } });
			const answer = await postRaw(trigger.url, vector.body, {
				'content-type': 'application/json',
				'webhook-id': vector.id,
				'webhook-timestamp': String(vector.timestamp),
				'webhook-signature': vector.signature,
			});
			if (vector.body.includes('sip.archived')) {
				expect(answer.status).toBe(204);
				expect(onlyItem(trigger).json.webhook_id).toBe(vector.id);
			} else {
				// The signature passed (no 401); these bodies are not SIP status events.
				expect(answer.status).toBe(400);
				expect(errorOf(answer)).toBe('type must be a non-empty string');
				expect(trigger.runs()).toHaveLength(0);
			}
		},
	);

	it('verifies vector 1 with its secret given without the whsec_ prefix', async () => {
		const vector = KNOWN_ANSWER_VECTORS[0];
		freezeClock(vector.timestamp * 1000);
		const trigger = await startTrigger({
			credentials: { signingSecret: vector.secret.slice('whsec_'.length) },
		});
		const answer = await postRaw(trigger.url, vector.body, {
			'content-type': 'application/json',
			'webhook-id': vector.id,
			'webhook-timestamp': String(vector.timestamp),
			'webhook-signature': vector.signature,
		});
		expect(answer.status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('rejects vector 1 when one byte of the body changes', async () => {
		const vector = KNOWN_ANSWER_VECTORS[0];
		freezeClock(vector.timestamp * 1000);
		const trigger = await startTrigger({ credentials: { signingSecret: vector.secret } });
		const answer = await postRaw(trigger.url, vector.body.replace('"pid": ', '"pid":'), {
			'webhook-id': vector.id,
			'webhook-timestamp': String(vector.timestamp),
			'webhook-signature': vector.signature,
		});
		expect(answer.status).toBe(401);
	});
});

describe('signatures', () => {
	it('rejects a tampered body with 401 and does not run', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const headers = signedHeaders(SECRET, nextId(), NOW_SECONDS, body);
		const answer = await postRaw(trigger.url, body.replace('success', 'failure'), headers);

		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toBe('no valid webhook signature');
		expect(trigger.runs()).toHaveLength(0);
	});

	it('rejects a delivery signed with another secret', async () => {
		const trigger = await startTrigger();
		expect((await deliver(trigger, sipEventBody(), { secret: newSecret() })).status).toBe(401);
		expect(trigger.runs()).toHaveLength(0);
	});

	it('accepts the old and the new secret while rotating', async () => {
		const [oldSecret, olderSecret, newestSecret] = [newSecret(), newSecret(), newSecret()];
		const trigger = await startTrigger({
			credentials: {
				signingSecret: newestSecret,
				additionalSecrets: `${oldSecret}\n${olderSecret}\n`,
			},
		});
		for (const secret of [newestSecret, oldSecret, olderSecret]) {
			expect((await deliver(trigger, sipEventBody(), { secret })).status).toBe(204);
		}
		expect(trigger.runs()).toHaveLength(3);
	});

	it('accepts when one of several signatures matches and ignores v1a entries', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = nextId();
		const valid = sign(SECRET, id, NOW_SECONDS, body);
		const decoy = `v1,${randomBytes(32).toString('base64')}`;
		const answer = await postRaw(trigger.url, body, {
			'webhook-id': id,
			'webhook-timestamp': String(NOW_SECONDS),
			'webhook-signature': `${decoy} v1a,${randomBytes(32).toString('base64')} v2,abc ${valid} v1,not-base64!`,
		});
		expect(answer.status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('verifies a non-ASCII webhook-id over the exact bytes that arrived (latin1 header values)', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = 'msg_é€ü';
		const headers = Object.entries(signedHeaders(SECRET, id, NOW_SECONDS, body)).map(
			([name, value]): [string, Buffer] => [name, Buffer.from(value, 'utf8')],
		);
		// The UTF-8 bytes of the id go on the wire as they are; the signature covers those bytes.
		const answer = await postBytes(
			trigger.url,
			[...headers, ['content-length', Buffer.from(String(Buffer.byteLength(body)))]],
			Buffer.from(body),
		);
		expect(answer.status).toBe(204);
		expect(onlyItem(trigger).json.webhook_id).toBe(id);
	});

	it('does not take a valid signature labelled v1a', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = nextId();
		const valid = sign(SECRET, id, NOW_SECONDS, body);
		const answer = await postRaw(trigger.url, body, {
			'webhook-id': id,
			'webhook-timestamp': String(NOW_SECONDS),
			'webhook-signature': valid.replace(/^v1,/, 'v1a,'),
		});
		expect(answer.status).toBe(401);
	});

	it('accepts the signature header sent twice (decoy first)', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = nextId();
		const answer = await postRaw(trigger.url, body, {
			'webhook-id': id,
			'webhook-timestamp': String(NOW_SECONDS),
			'webhook-signature': [
				`v1,${randomBytes(32).toString('base64')}`,
				sign(SECRET, id, NOW_SECONDS, body),
			],
		});
		expect(answer.status).toBe(204);
	});
});

describe('hostile signature headers (bounded before parsing)', () => {
	function forgedHeaders(signature: string, id = nextId()): Record<string, string> {
		return {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(NOW_SECONDS),
			'webhook-signature': signature,
		};
	}

	it('refuses 16,000 commas (under the HTTP header limit) with 401 before parsing them', async () => {
		const trigger = await startTrigger();
		const answer = await postRaw(trigger.url, sipEventBody(), forgedHeaders(','.repeat(16_000)));
		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toBe('webhook-signature header is longer than 4096 bytes');
		expect(trigger.runs()).toHaveLength(0);
	});

	it('refuses a header of more than 10 entries even when one of them is valid', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = nextId();
		const decoys = Array.from({ length: 10 }, () => `v1,${randomBytes(32).toString('base64')}`);
		const answer = await postRaw(
			trigger.url,
			body,
			forgedHeaders([...decoys, sign(SECRET, id, NOW_SECONDS, body)].join(' '), id),
		);
		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toBe('webhook-signature header has more than 10 entries');
		expect(trigger.runs()).toHaveLength(0);
	});

	it('counts the entries of repeated signature headers together', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = nextId();
		const decoys = Array.from({ length: 10 }, () => `v1,${randomBytes(32).toString('base64')}`);
		const answer = await postRaw(trigger.url, body, {
			...forgedHeaders('', id),
			'webhook-signature': [
				decoys.slice(0, 5).join(' '),
				decoys.slice(5).join(' '),
				sign(SECRET, id, NOW_SECONDS, body),
			],
		});
		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toBe('webhook-signature header has more than 10 entries');
	});

	it('accepts 10 entries of which one is valid', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = nextId();
		const decoys = Array.from({ length: 9 }, () => `v1,${randomBytes(32).toString('base64')}`);
		const answer = await postRaw(
			trigger.url,
			body,
			forgedHeaders([...decoys, sign(SECRET, id, NOW_SECONDS, body)].join(' '), id),
		);
		expect(answer.status).toBe(204);
	});

	it('refuses a webhook-id longer than 256 characters before checking the signature', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = `msg_${'x'.repeat(253)}`;
		const answer = await postRaw(trigger.url, body, signedHeaders(SECRET, id, NOW_SECONDS, body));
		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toBe('webhook-id header is too long');
		const fits = id.slice(0, 256);
		expect(
			(await postRaw(trigger.url, body, signedHeaders(SECRET, fits, NOW_SECONDS, body))).status,
		).toBe(204);
	});
});

describe('headers', () => {
	function headersFor(body: string, id = nextId()): Record<string, string | string[]> {
		return signedHeaders(SECRET, id, NOW_SECONDS, body);
	}

	it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
		'rejects a missing %s with 401',
		async (name) => {
			const trigger = await startTrigger();
			const body = sipEventBody();
			const headers = headersFor(body);
			delete headers[name];
			const answer = await postRaw(trigger.url, body, headers);
			expect(answer.status).toBe(401);
			expect(errorOf(answer)).toBe(`missing ${name} header`);
		},
	);

	it('rejects a webhook-id sent twice with different values', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const headers = headersFor(body, 'msg_a');
		headers['webhook-id'] = ['msg_a', 'msg_b'];
		const answer = await postRaw(trigger.url, body, headers);
		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toMatch(/webhook-id header was sent more than once/);
	});

	it('rejects a webhook-timestamp sent twice with different values', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const headers = headersFor(body);
		headers['webhook-timestamp'] = [String(NOW_SECONDS), String(NOW_SECONDS + 1)];
		expect((await postRaw(trigger.url, body, headers)).status).toBe(401);
	});

	it('accepts a webhook-id repeated with the same value', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const headers = headersFor(body, 'msg_same');
		headers['webhook-id'] = ['msg_same', 'msg_same'];
		expect((await postRaw(trigger.url, body, headers)).status).toBe(204);
	});

	it.each([
		['digits followed by letters', `${NOW_SECONDS}abc`],
		['"123abc"', '123abc'],
		['milliseconds', String(NOW_SECONDS * 1000)],
		['a decimal', `${NOW_SECONDS}.5`],
		['a sign', `+${NOW_SECONDS}`],
		['a negative number', '-1'],
	])('rejects a timestamp with %s even when signed', async (_label, timestamp) => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const id = nextId();
		const signature = sign(SECRET, id, NOW_SECONDS, body).slice(3);
		const answer = await postRaw(trigger.url, body, {
			'webhook-id': id,
			'webhook-timestamp': timestamp,
			// Signed over the odd text itself, so only the timestamp rule can reject it.
			'webhook-signature': `v1,${signature} ${signedOver(id, timestamp, body)}`,
		});
		expect(answer.status).toBe(401);
		expect(trigger.runs()).toHaveLength(0);
	});

	function signedOver(id: string, timestamp: string, body: string): string {
		// standardwebhooks takes a Date; compute the HMAC for an arbitrary timestamp text ourselves.
		const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
		return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
	}
});

describe('timestamp window', () => {
	it.each([
		{ label: '301 s old', timestamp: NOW_SECONDS - 301, status: 401 },
		{ label: '301 s ahead', timestamp: NOW_SECONDS + 301, status: 401 },
		{ label: '300 s old', timestamp: NOW_SECONDS - 300, status: 204 },
		{ label: '300 s ahead', timestamp: NOW_SECONDS + 300, status: 204 },
	])(
		'with the default 300 s tolerance, a delivery $label is answered $status',
		async ({ timestamp, status }) => {
			const trigger = await startTrigger();
			expect((await deliver(trigger, sipEventBody(), { timestamp })).status).toBe(status);
		},
	);

	it('names stale and future timestamps', async () => {
		const trigger = await startTrigger();
		expect(errorOf(await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3600 }))).toBe(
			'webhook-timestamp is too old',
		);
		expect(errorOf(await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS + 3600 }))).toBe(
			'webhook-timestamp is too far in the future',
		);
	});

	it('clamps the tolerance to one hour: a 10-day-old signed delivery is refused even with 1e9', async () => {
		const trigger = await startTrigger({ parameters: { options: { toleranceSeconds: 1e9 } } });
		const tenDaysOld = await deliver(trigger, sipEventBody(), {
			timestamp: NOW_SECONDS - 10 * 86_400,
		});
		expect(tenDaysOld.status).toBe(401);
		expect(errorOf(tenDaysOld)).toBe('webhook-timestamp is too old');
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3601 })).status).toBe(
			401,
		);
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3600 })).status).toBe(
			204,
		);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('honours a configured tolerance', async () => {
		const trigger = await startTrigger({ parameters: { options: { toleranceSeconds: 600 } } });
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 500 })).status).toBe(
			204,
		);
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 601 })).status).toBe(
			401,
		);
	});
});

describe('replays', () => {
	it('answers a second delivery of the same message 204 without running again', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const headers = signedHeaders(SECRET, 'msg_replayed', NOW_SECONDS, body);

		expect((await postRaw(trigger.url, body, headers)).status).toBe(204);
		const second = await postRaw(trigger.url, body, headers);
		expect(second.status).toBe(204);
		expect(second.body).toBe('');
		expect(trigger.runs()).toHaveLength(1);
	});

	it('drops a sender retry with the same id, a fresh timestamp and a new signature', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		expect((await deliver(trigger, body, { id: 'msg_retry' })).status).toBe(204);

		freezeClock((NOW_SECONDS + 5 * 3600) * 1000);
		const retry = await deliver(trigger, body, {
			id: 'msg_retry',
			timestamp: NOW_SECONDS + 5 * 3600,
		});
		expect(retry.status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('does not let an unsigned delivery reserve an id', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		expect((await deliver(trigger, body, { id: 'msg_poison', secret: newSecret() })).status).toBe(
			401,
		);
		expect((await deliver(trigger, body, { id: 'msg_poison' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('lets a message rejected as malformed be delivered again', async () => {
		const trigger = await startTrigger();
		expect((await deliver(trigger, '{"type": ""}', { id: 'msg_fixed' })).status).toBe(400);
		expect((await deliver(trigger, sipEventBody(), { id: 'msg_fixed' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('keeps test-mode and production deliveries apart', async () => {
		const body = sipEventBody();
		const production = await startTrigger({ workflowId: 'shared-workflow' });
		const testMode = await startTrigger({ workflowId: 'shared-workflow', mode: 'manual' });
		expect((await deliver(testMode, body, { id: 'msg_both' })).status).toBe(204);
		expect((await deliver(production, body, { id: 'msg_both' })).status).toBe(204);
		expect(testMode.runs()).toHaveLength(1);
		expect(production.runs()).toHaveLength(1);
	});
});

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

describe('filters and outputs', () => {
	it('acknowledges but does not run for an outcome that is filtered out', async () => {
		const trigger = await startTrigger({ parameters: { outcomes: 'success' } });
		expect((await deliver(trigger, sipEventBody({ outcome: 'failure' }))).status).toBe(204);
		expect(trigger.runs()).toHaveLength(0);
		expect((await deliver(trigger, sipEventBody({ outcome: 'success' }))).status).toBe(204);
		expect(onlyItem(trigger).json.outcome).toBe('success');
	});

	it('can start only on failures', async () => {
		const trigger = await startTrigger({ parameters: { outcomes: 'failure' } });
		await deliver(trigger, sipEventBody({ outcome: 'success' }));
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		expect(onlyItem(trigger).json.outcome).toBe('failure');
	});

	it('routes success to output 1 and failure to output 2 with separate outputs', async () => {
		const trigger = await startTrigger({ parameters: { outputMode: 'perOutcome' } });
		await deliver(trigger, sipEventBody({ outcome: 'success' }));
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		const [successRun, failureRun] = trigger.runs();
		expect(successRun.map((items) => items.map((item) => item.json.outcome))).toEqual([
			['success'],
			[],
		]);
		expect(failureRun.map((items) => items.map((item) => item.json.outcome))).toEqual([
			[],
			['failure'],
		]);
	});

	it('by default starts for every type: a type the archive adds later is not dropped', async () => {
		const trigger = await startTrigger();
		expect((await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }))).status).toBe(204);
		await deliver(trigger, sipEventBody({ type: 'service.sip.archived' }));
		expect(trigger.runs().map((run) => run[0][0].json.type)).toEqual([
			'meemoo.ie.created',
			'service.sip.archived',
		]);
	});

	it('keeps filtering by *.sip.* in a workflow that saved that value (n8n stores an added option as it is)', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventTypes: '*.sip.*' } } });
		expect((await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }))).status).toBe(204);
		expect(trigger.runs()).toHaveLength(0);
		await deliver(trigger, sipEventBody({ type: 'service.sip.archived' }));
		expect(onlyItem(trigger).json.type).toBe('service.sip.archived');
	});

	it('uses a configured list of type patterns', async () => {
		const trigger = await startTrigger({
			parameters: { options: { eventTypes: 'service.sip.archived,\n*.ie.*' } },
		});
		await deliver(trigger, sipEventBody({ type: 'meemoo.sip.archived' }));
		await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }));
		await deliver(trigger, sipEventBody({ type: 'service.sip.archived' }));
		expect(trigger.runs().map((run) => run[0][0].json.type)).toEqual([
			'meemoo.ie.created',
			'service.sip.archived',
		]);
	});

	it('matches a backtracking-prone pattern against a 200-character type over HTTP without building a regex', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventTypes: '*a*a*a*a*b' } } });
		const built: string[] = [];
		const NativeRegExp = RegExp;
		const spy = jest.spyOn(globalThis, 'RegExp').mockImplementation((pattern, flags) => {
			built.push(String(pattern));
			return new NativeRegExp(pattern as string, flags);
		});
		try {
			expect((await deliver(trigger, sipEventBody({ type: 'a'.repeat(200) }))).status).toBe(204);
			expect((await deliver(trigger, sipEventBody({ type: `${'a'.repeat(199)}b` }))).status).toBe(
				204,
			);
		} finally {
			spy.mockRestore();
		}
		expect(trigger.runs().map((run) => run[0][0].json.type)).toEqual([`${'a'.repeat(199)}b`]);
		expect(built.filter((source) => source.includes('a.*a'))).toEqual([]);
	});

	it('starts for every type when the pattern list is empty', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventTypes: '' } } });
		await deliver(trigger, sipEventBody({ type: 'anything' }));
		expect(trigger.runs()).toHaveLength(1);
	});
});

describe('filtered-out events are never dropped without a trace', () => {
	function filterLogs(from: number) {
		return recordedLogs.slice(from).filter((entry) => entry.message.includes('filtered out'));
	}

	it('logs an event filtered out by type at info level with its type and webhook-id, never its body', async () => {
		const trigger = await startTrigger({
			parameters: { options: { eventTypes: 'service.sip.archived' } },
		});
		const logsBefore = recordedLogs.length;
		const body = sipEventBody({ type: 'meemoo.ie.created' });
		expect((await deliver(trigger, body, { id: 'msg_filtered_type' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(0);
		const logs = filterLogs(logsBefore);
		expect(logs).toHaveLength(1);
		expect(logs[0].level).toBe('info');
		expect(logs[0].message).toContain('Event Types');
		expect(logs[0].message).toContain('"meemoo.ie.created"');
		expect(logs[0].message).toContain('"msg_filtered_type"');
		const logged = JSON.stringify(recordedLogs.slice(logsBefore));
		expect(logged).not.toContain('843e9ba457593d0edf69a24baa0babf3');
		expect(logged).not.toContain(SECRET.slice('whsec_'.length));
	});

	it('logs an event filtered out by Start Workflow On, and nothing for the events it starts', async () => {
		const trigger = await startTrigger({ parameters: { outcomes: 'failure' } });
		const logsBefore = recordedLogs.length;
		await deliver(trigger, sipEventBody({ outcome: 'success' }), { id: 'msg_filtered_outcome' });
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		expect(onlyItem(trigger).json.outcome).toBe('failure');
		const logs = filterLogs(logsBefore);
		expect(logs).toHaveLength(1);
		expect(logs[0]).toMatchObject({ level: 'info' });
		expect(logs[0].message).toContain('Start Workflow On');
		expect(logs[0].message).toContain('"msg_filtered_outcome"');
	});

	it('keeps a long type to one short log line', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventTypes: 'x' } } });
		const logsBefore = recordedLogs.length;
		await deliver(trigger, sipEventBody({ type: `${'t'.repeat(5000)}\\nforged line` }));
		const [log] = filterLogs(logsBefore);
		expect(log.message.length).toBeLessThan(500);
		expect(log.message).not.toContain('\n');
	});

	it('sends filtered-out events to a last output "Filtered Out" when chosen, and others to the usual outputs', async () => {
		const trigger = await startTrigger({
			parameters: {
				outcomes: 'success',
				options: { eventTypes: '*.sip.archived', sendFilteredOut: true },
			},
		});
		await deliver(trigger, sipEventBody({ outcome: 'success' }));
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }));
		const outputs = trigger
			.runs()
			.map((run) =>
				run.map((items) => items.map((item) => `${item.json.type}/${item.json.outcome}`)),
			);
		expect(outputs).toEqual([
			[['meemoo.sip.archived/success'], []],
			[[], ['meemoo.sip.archived/failure']],
			[[], ['meemoo.ie.created/success']],
		]);
		for (const run of trigger.runs()) {
			for (const items of run)
				for (const item of items) expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	it('puts Filtered Out after the Success and Failure outputs', async () => {
		const trigger = await startTrigger({
			parameters: {
				outputMode: 'perOutcome',
				options: { eventTypes: '*.sip.archived', sendFilteredOut: true },
			},
		});
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created', outcome: 'failure' }));
		const outputs = trigger.runs().map((run) => run.map((items) => items.length));
		expect(outputs).toEqual([
			[0, 1, 0],
			[0, 0, 1],
		]);
	});
});

describe('rate limit', () => {
	it('answers 429 beyond the configured events per minute, and the event can be retried later', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventsPerMinute: 2 } } });
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		const limited = await deliver(trigger, sipEventBody(), { id: 'msg_limited' });
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('30');
		expect(trigger.runs()).toHaveLength(2);

		freezeClock((NOW_SECONDS + 30) * 1000);
		const retried = await deliver(trigger, sipEventBody(), {
			id: 'msg_limited',
			timestamp: NOW_SECONDS + 30,
		});
		expect(retried.status).toBe(204);
		expect(trigger.runs()).toHaveLength(3);
	});

	it('is off by default', async () => {
		const trigger = await startTrigger();
		for (let index = 0; index < 30; index += 1) {
			expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		}
		expect(trigger.runs()).toHaveLength(30);
	});

	it('does not count unsigned deliveries', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventsPerMinute: 1 } } });
		for (let index = 0; index < 3; index += 1) {
			expect((await deliver(trigger, sipEventBody(), { secret: newSecret() })).status).toBe(401);
		}
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
	});
});

describe('secrets and internal errors', () => {
	it('answers 500 with a generic body when no secret is usable, and never echoes it', async () => {
		const badSecret = 'v1,c2VjcmV0LXRoYXQtaXMtYS1zaWduYXR1cmU=';
		const trigger = await startTrigger({ credentials: { signingSecret: badSecret } });
		const answer = await deliver(trigger, sipEventBody());
		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.body)).toEqual({ error: 'internal error' });
		expect(JSON.stringify(recordedLogs)).not.toContain('c2VjcmV0LXRoYXQtaXMtYS1zaWduYXR1cmU');
		expect(
			recordedLogs.some(
				(entry) => entry.level === 'error' && entry.message.includes('Signing Secret'),
			),
		).toBe(true);
	});

	it('refuses a 1-byte key at delivery: 500 (never 410) and a log line naming the minimum, even for a correct signature', async () => {
		const tinySecret = 'whsec_QQ==';
		const trigger = await startTrigger({ credentials: { signingSecret: tinySecret } });
		const body = sipEventBody();
		const id = nextId();
		const key = Buffer.from('QQ==', 'base64');
		const signature = `v1,${createHmac('sha256', key).update(`${id}.${NOW_SECONDS}.${body}`).digest('base64')}`;
		const answer = await postRaw(trigger.url, body, {
			'webhook-id': id,
			'webhook-timestamp': String(NOW_SECONDS),
			'webhook-signature': signature,
		});
		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.body)).toEqual({ error: 'internal error' });
		expect(trigger.runs()).toHaveLength(0);
		expect(recordedLogs.at(-1)).toEqual({
			level: 'error',
			message:
				'Archive SIP Status Trigger could not handle a delivery: No usable signing secret: Signing Secret decodes to 1 bytes, fewer than the minimum of 16 (Standard Webhooks secrets hold 24 to 64 random bytes)',
			metadata: undefined,
		});
	});

	it('never puts a secret or a signature in any answer or log', async () => {
		const rotated = newSecret();
		const trigger = await startTrigger({
			credentials: { signingSecret: SECRET, additionalSecrets: `${rotated}\nnot-a-secret` },
			parameters: { options: { eventsPerMinute: 3 } },
		});
		const body = sipEventBody();
		const signatures: string[] = [];
		const answers: HttpAnswer[] = [];
		const send = async (headers: Record<string, string>, payload = body) => {
			signatures.push(headers['webhook-signature']);
			answers.push(await postRaw(trigger.url, payload, headers));
		};
		await send(signedHeaders(SECRET, 'msg_s1', NOW_SECONDS, body));
		await send(signedHeaders(rotated, 'msg_s2', NOW_SECONDS - 900, body));
		await send(signedHeaders(newSecret(), 'msg_s3', NOW_SECONDS, body));
		await send(signedHeaders(SECRET, 'msg_s4', NOW_SECONDS, '{"type": 1}'), '{"type": 1}');
		await send(signedHeaders(SECRET, 'msg_s5', NOW_SECONDS, body));
		await send(signedHeaders(SECRET, 'msg_s6', NOW_SECONDS, body));

		expect(answers.map((answer) => answer.status)).toEqual([204, 401, 401, 400, 204, 429]);
		const everything = JSON.stringify([answers, recordedLogs, trigger.calls]);
		for (const secret of [SECRET, rotated]) {
			expect(everything).not.toContain(secret.slice('whsec_'.length));
		}
		expect(everything).not.toContain('not-a-secret');
		for (const signature of signatures) expect(everything).not.toContain(signature.slice(3));
		expect(answers.every((answer) => answer.status !== 410)).toBe(true);
	});
});

describe('signing keys: read once, reused for a few seconds by production deliveries', () => {
	/** A trigger whose credential the test edits between deliveries, as a user would in n8n (the harness reads it each time). */
	async function startEditableTrigger(mode: WebhookHarnessOptions['mode'] = 'webhook') {
		const credential: ICredentialDataDecryptedObject = { signingSecret: SECRET };
		return { harness: await startTrigger({ credentials: credential, mode }), credential };
	}

	it('reads the credential once for a burst of deliveries, and again once the keys are older than the window', async () => {
		const { harness } = await startEditableTrigger();
		const statuses = [];
		for (let index = 0; index < 5; index++)
			statuses.push((await deliver(harness, sipEventBody())).status);
		expect(statuses).toEqual([204, 204, 204, 204, 204]);
		expect(harness.credentialReads()).toBe(1);
		freezeClock(NOW_SECONDS * 1000 + SIGNING_KEY_REUSE_MS);
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(harness.credentialReads()).toBe(2);
		expect(harness.runs()).toHaveLength(6);
	});

	it('verifies an event signed with a secret added to the credential at once (rotation)', async () => {
		const { harness, credential } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		const rotated = newSecret();
		credential.signingSecret = rotated;
		credential.additionalSecrets = SECRET;
		expect((await deliver(harness, sipEventBody(), { secret: rotated })).status).toBe(204);
		expect((await deliver(harness, sipEventBody(), { secret: SECRET })).status).toBe(204);
		expect(harness.credentialReads()).toBe(2);
	});

	it('stops verifying a secret removed from the credential once the window has passed', async () => {
		const { harness, credential } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		credential.signingSecret = newSecret();
		// Within the window the keys read a moment ago still hold the removed secret (the documented delay) ...
		freezeClock(NOW_SECONDS * 1000 + SIGNING_KEY_REUSE_MS - 1);
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		// ... and from then on the credential as it is now decides.
		freezeClock(NOW_SECONDS * 1000 + SIGNING_KEY_REUSE_MS);
		const refused = await deliver(harness, sipEventBody());
		expect(refused.status).toBe(401);
		expect(errorOf(refused)).toMatch(/signature/i);
		expect(harness.runs()).toHaveLength(2);
	});

	it('reads the credential again before refusing a signature, so forged deliveries cost what they did', async () => {
		const { harness } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect((await deliver(harness, sipEventBody(), { secret: newSecret() })).status).toBe(401);
		expect(harness.credentialReads()).toBe(2);
	});

	it('does not read the credential again for a 401 without webhook headers, with a stale timestamp or a malformed header', async () => {
		const { harness } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		const body = sipEventBody();
		expect((await postRaw(harness.url, body, { 'content-type': 'application/json' })).status).toBe(
			401,
		);
		expect(
			(await deliver(harness, body, { secret: newSecret(), timestamp: NOW_SECONDS - 3600 })).status,
		).toBe(401);
		const overlong = {
			...signedHeaders(newSecret(), nextId(), NOW_SECONDS, body),
			'webhook-signature': 'v1,x '.repeat(11),
		};
		expect((await postRaw(harness.url, body, overlong)).status).toBe(401);
		expect(harness.credentialReads()).toBe(1);
	});

	it('reads the credential again at most once per few seconds for a stream of fresh forgeries', async () => {
		const { harness } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		for (let index = 0; index < 5; index++) {
			expect((await deliver(harness, sipEventBody(), { secret: newSecret() })).status).toBe(401);
		}
		expect(harness.credentialReads()).toBe(2);
		freezeClock(NOW_SECONDS * 1000 + FORCED_REREAD_INTERVAL_MS);
		expect(
			(await deliver(harness, sipEventBody(), { secret: newSecret(), timestamp: NOW_SECONDS + 5 }))
				.status,
		).toBe(401);
		expect(harness.credentialReads()).toBe(3);
	});

	it('logs the unusable-secret warning once per change of the secrets, not on every read', async () => {
		const credential: ICredentialDataDecryptedObject = {
			signingSecret: SECRET,
			additionalSecrets: 'not-a-secret',
		};
		// Test-URL deliveries read the credential every time.
		const harness = await startTrigger({ credentials: credential, mode: 'manual' });
		const logsBefore = recordedLogs.length;
		const warnings = () => recordedLogs.slice(logsBefore).filter((entry) => entry.level === 'warn');
		for (let index = 0; index < 3; index++)
			expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(harness.credentialReads()).toBe(3);
		expect(warnings()).toHaveLength(1);
		expect(warnings()[0].message).toContain('Additional Secret 1 is not valid base64');
		credential.additionalSecrets = 'still-not-a-secret';
		for (let index = 0; index < 2; index++)
			expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(warnings()).toHaveLength(2);
	});

	it('reads the credential for every test-URL delivery, so edits show at once in the editor', async () => {
		const { harness } = await startEditableTrigger('manual');
		for (let index = 0; index < 3; index++)
			expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(harness.credentialReads()).toBe(3);
	});
});

describe('a failing replay store (e.g. a shared store that is down)', () => {
	it('answers 500 with a generic body, logs no detail of the foreign error and starts nothing', async () => {
		const failingStore: ReplayStore = {
			seen: async () => {
				throw new Error('connect ECONNREFUSED redis://:hunter2@127.0.0.1:6379');
			},
			remember: async () => true,
			forget: async () => undefined,
		};
		setReplayStore('failing-store-workflow:node-under-test:webhook', failingStore);
		const trigger = await startTrigger({ workflowId: 'failing-store-workflow' });
		const answer = await deliver(trigger, sipEventBody());

		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.body)).toEqual({ error: 'internal error' });
		expect(trigger.runs()).toHaveLength(0);
		expect(JSON.stringify(recordedLogs)).not.toContain('hunter2');
		expect(recordedLogs.at(-1)).toMatchObject({
			level: 'error',
			message: expect.stringContaining('unexpected Error'),
		});
	});
});
