import { freezeClock, postRaw } from '../../../dev/harness/webhook';
import { newSecret, signedHeaders, sipEventBody } from './fixtures';
import { NOW_SECONDS, SECRET, deliver, startTrigger, useTriggerHarness } from './triggerSetup';

useTriggerHarness();

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
