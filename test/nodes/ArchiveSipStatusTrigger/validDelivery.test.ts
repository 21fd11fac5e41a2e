import { sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { NOW_SECONDS, deliver, onlyItem, startTrigger, useTriggerHarness } from './triggerSetup';

useTriggerHarness();

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
