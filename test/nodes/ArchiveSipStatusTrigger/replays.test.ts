import { freezeClock, postRaw } from '../../../dev/harness/webhook';
import { signedHeaders, sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';
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
		expect(
			(await deliver(trigger, body, { id: 'msg_poison', secret: generateSecret() })).status,
		).toBe(401);
		expect((await deliver(trigger, body, { id: 'msg_poison' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('lets a message rejected as malformed be delivered again', async () => {
		const trigger = await startTrigger();
		expect((await deliver(trigger, '{"type": ""}', { id: 'msg_fixed' })).status).toBe(400);
		expect((await deliver(trigger, sipEventBody(), { id: 'msg_fixed' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('keeps one record per secret: a delivery accepted at the Test URL is a replay at the production URL', async () => {
		const body = sipEventBody();
		const testMode = await startTrigger({ workflowId: 'shared-workflow', mode: 'manual' });
		const production = await startTrigger({ workflowId: 'shared-workflow' });
		expect((await deliver(testMode, body, { id: 'msg_both' })).status).toBe(204);
		expect((await deliver(production, body, { id: 'msg_both' })).status).toBe(204);
		expect(testMode.runs()).toHaveLength(1);
		expect(production.runs()).toHaveLength(0);
	});

	it('answers a delivery captured at one trigger and replayed at another trigger with the same secret as a replay', async () => {
		const first = await startTrigger({ workflowId: 'workflow-a' });
		const second = await startTrigger({ workflowId: 'workflow-b' });
		const body = sipEventBody();
		const headers = signedHeaders(SECRET, 'msg_captured', NOW_SECONDS, body);
		expect((await postRaw(first.url, body, headers)).status).toBe(204);
		expect((await postRaw(second.url, body, headers)).status).toBe(204);
		// A sender retry (fresh signature) to the other trigger too.
		expect((await deliver(second, body, { id: 'msg_captured' })).status).toBe(204);
		expect(first.runs()).toHaveLength(1);
		expect(second.runs()).toHaveLength(0);
	});

	it('keeps triggers with different secrets apart: the same id runs at each', async () => {
		const otherSecret = generateSecret();
		const first = await startTrigger();
		const second = await startTrigger({ credentials: { signingSecret: otherSecret } });
		const body = sipEventBody();
		expect((await deliver(first, body, { id: 'msg_same_id' })).status).toBe(204);
		expect((await deliver(second, body, { id: 'msg_same_id', secret: otherSecret })).status).toBe(
			204,
		);
		expect(first.runs()).toHaveLength(1);
		expect(second.runs()).toHaveLength(1);
	});

	it('records a delivery signed by two secrets (rotation) under both', async () => {
		const newer = generateSecret();
		const oldOnly = await startTrigger();
		const rotated = await startTrigger({
			credentials: { signingSecret: newer, additionalSecrets: SECRET },
		});
		const body = sipEventBody();
		const signedByOld = signedHeaders(SECRET, 'msg_rotation', NOW_SECONDS, body);
		const signedByBoth = {
			...signedByOld,
			'webhook-signature': `${signedHeaders(newer, 'msg_rotation', NOW_SECONDS, body)['webhook-signature']} ${signedByOld['webhook-signature']}`,
		};
		expect((await postRaw(rotated.url, body, signedByBoth)).status).toBe(204);
		// The trigger that knows only the old secret sees the same delivery as a replay.
		expect((await postRaw(oldOnly.url, body, signedByOld)).status).toBe(204);
		// And one signed by the new secret alone is a replay at the rotated trigger.
		expect((await deliver(rotated, body, { id: 'msg_rotation', secret: newer })).status).toBe(204);
		expect(rotated.runs()).toHaveLength(1);
		expect(oldOnly.runs()).toHaveLength(0);
	});
});
