import { postRaw, recordedLogs } from '../../../dev/harness/webhook';
import { signedHeaders, sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';
import { NOW_SECONDS, SECRET, deliver, startTrigger, useTriggerHarness } from './triggerSetup';

useTriggerHarness();

/**
 * At the Test URL (the editor listening for a test event) a refused delivery fails the test run with a message that
 * says why and a description that says what to check; n8n answers the sender 500. At the Production URL nothing
 * changes: 401 (or 400), no run, and n8n's log has at most one line per trigger, reason and minute.
 */

function errorOf(harness: Awaited<ReturnType<typeof startTrigger>>) {
	const call = harness.calls[harness.calls.length - 1];
	return call.error as { name?: string; message?: string; description?: string } | undefined;
}

describe('a refused test event fails the test run with what to check', () => {
	it('a signature that matches no secret', async () => {
		const trigger = await startTrigger({ mode: 'manual' });
		const answer = await deliver(trigger, sipEventBody(), { secret: generateSecret() });
		expect(answer.status).toBe(500);
		expect(errorOf(trigger)).toMatchObject({
			name: 'NodeOperationError',
			message: 'The test event was refused: its signature matches none of the signing secrets',
			description: expect.stringContaining(
				"Check that the credential's Signing Secret is the whsec_",
			),
		});
		expect(trigger.runs()).toHaveLength(0);
	});

	it('a timestamp outside the tolerance', async () => {
		const trigger = await startTrigger({ mode: 'manual' });
		await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3600 });
		expect(errorOf(trigger)?.message).toBe(
			'The test event was refused: its webhook-timestamp is outside the Timestamp Tolerance (webhook-timestamp is too old)',
		);
		expect(errorOf(trigger)?.description).toContain("Check this server's clock");
	});

	it('malformed Standard Webhooks headers', async () => {
		const trigger = await startTrigger({ mode: 'manual' });
		const body = sipEventBody();
		const headers = signedHeaders(SECRET, 'msg_no_signature', NOW_SECONDS, body);
		delete headers['webhook-signature'];
		expect((await postRaw(trigger.url, body, headers)).status).toBe(500);
		expect(errorOf(trigger)?.message).toBe(
			'The test event was refused: its Standard Webhooks headers are not valid (missing webhook-signature header)',
		);
	});

	it('a signed body that is not a SIP status event', async () => {
		const trigger = await startTrigger({ mode: 'manual' });
		expect((await deliver(trigger, '{"hello": "world"}')).status).toBe(500);
		expect(errorOf(trigger)?.message).toMatch(
			/^The test event was refused: its body is not a SIP status event \(.+\)$/,
		);
	});

	it('an event left out by Event Types says so, and runs once the filter lets it through', async () => {
		const parameters = { eventTypes: 'custom', customEventTypes: 'meemoo.sip.archived' };
		const trigger = await startTrigger({ mode: 'manual', parameters });
		const body = sipEventBody({ type: 'meemoo.ie.created' });
		expect((await deliver(trigger, body, { id: 'msg_filtered_test' })).status).toBe(500);
		expect(errorOf(trigger)?.message).toBe(
			'The test event was filtered out by Event Types: its type is "meemoo.ie.created"',
		);
		const widened = await startTrigger({ mode: 'manual', parameters: { eventTypes: 'any' } });
		expect((await deliver(widened, body, { id: 'msg_filtered_test' })).status).toBe(204);
		expect(widened.runs()).toHaveLength(1);
	});
});

describe('a refused delivery at the Production URL', () => {
	it('is answered 401 without a run, and logged once per trigger, reason and minute', async () => {
		const trigger = await startTrigger({ mode: 'webhook' });
		const logsBefore = recordedLogs.length;
		for (let attempt = 0; attempt < 20; attempt++) {
			const answer = await deliver(trigger, sipEventBody(), { secret: generateSecret() });
			expect(answer.status).toBe(401);
		}
		await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3600 });
		const refusals = recordedLogs
			.slice(logsBefore)
			.filter((entry) => entry.message.includes('refused a delivery'));
		expect(refusals.map((entry) => entry.message)).toEqual([
			'Archive SIP Status Trigger refused a delivery with 401 (no valid webhook signature); more refusals of this kind are not logged for a minute',
			'Archive SIP Status Trigger refused a delivery with 401 (webhook-timestamp is too old); more refusals of this kind are not logged for a minute',
		]);
		expect(JSON.stringify(recordedLogs.slice(logsBefore))).not.toContain(SECRET.slice(6));
		expect(trigger.runs()).toHaveLength(0);
	});
});
