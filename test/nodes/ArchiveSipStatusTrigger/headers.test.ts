import { postRaw } from '../../../dev/harness/webhook';
import { sign, signedHeaders, sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { rawSignature } from './rawSignature';
import {
	NOW_SECONDS,
	SECRET,
	errorOf,
	nextId,
	startTrigger,
	useTriggerHarness,
} from './triggerSetup';

useTriggerHarness();

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
			// Signed over the odd text itself, so only the timestamp rule can reject it. By hand: the library takes the
			// timestamp as a Date and signs whole seconds only, never this text.
			'webhook-signature': `v1,${signature} ${rawSignature(SECRET, id, timestamp, body)}`,
		});
		expect(answer.status).toBe(401);
		expect(trigger.runs()).toHaveLength(0);
	});
});
