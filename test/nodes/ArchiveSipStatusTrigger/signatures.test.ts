import { randomBytes } from 'node:crypto';

import { postBytes, postRaw } from '../../../dev/harness/webhook';
import { sign, signedHeaders, sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';
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
		expect((await deliver(trigger, sipEventBody(), { secret: generateSecret() })).status).toBe(401);
		expect(trigger.runs()).toHaveLength(0);
	});

	it('accepts the old and the new secret while rotating', async () => {
		const [oldSecret, olderSecret, newestSecret] = [
			generateSecret(),
			generateSecret(),
			generateSecret(),
		];
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
