import { postRaw } from '../../../dev/harness/webhook';
import { recordedLogs } from '../../../dev/harness/webhook';
import {
	acceptedIds,
	MAX_RECORDED_IDS,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';
import { signedHeaders, sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import {
	NOW_SECONDS,
	SECRET,
	deliver,
	errorOf,
	startTrigger,
	useTriggerHarness,
} from './triggerSetup';

useTriggerHarness();

/**
 * The record's two limits, at the real values: its start (a process knows nothing accepted before it) and its size
 * (MAX_RECORDED_IDS). At each, the trigger refuses with a status the sender retries, and never runs an id twice.
 */

describe('a restarted process (the record began after the delivery was signed)', () => {
	it('refuses a copy of a delivery signed before it started, and runs the sender retry signed afterwards', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const captured = signedHeaders(SECRET, 'msg_before_restart', NOW_SECONDS - 10, body);
		acceptedIds.reset((NOW_SECONDS - 5) * 1000);

		for (let attempt = 0; attempt < 3; attempt++) {
			const replay = await postRaw(trigger.url, body, captured);
			expect(replay.status).toBe(503);
			expect(replay.headers['retry-after']).toBe('1');
			expect(errorOf(replay)).toBe(
				'signed before this n8n process started, retry with a fresh signature',
			);
		}
		expect(trigger.runs()).toHaveLength(0);

		// The sender signs each retry afresh.
		expect((await deliver(trigger, body, { id: 'msg_before_restart' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
		// Once accepted, the captured copy is still refused and the retry is a replay.
		expect((await postRaw(trigger.url, body, captured)).status).toBe(503);
		expect((await deliver(trigger, body, { id: 'msg_before_restart' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('accepts a delivery signed in the second the record began', async () => {
		const trigger = await startTrigger();
		acceptedIds.reset(NOW_SECONDS * 1000 + 900);
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS })).status).toBe(204);
	});
});

describe('a full record', () => {
	it(`refuses new events with 503 once it holds ${MAX_RECORDED_IDS} ids, keeps every replay a replay, logs why once a minute`, async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		expect((await deliver(trigger, body, { id: 'msg_first' })).status).toBe(204);
		for (let index = acceptedIds.size; index < MAX_RECORDED_IDS; index++)
			acceptedIds.add(`filler-${index}`);
		expect(acceptedIds.size).toBe(MAX_RECORDED_IDS);
		const logsBefore = recordedLogs.length;

		const refused = await deliver(trigger, body, { id: 'msg_no_room' });
		expect(refused.status).toBe(503);
		expect(refused.headers['retry-after']).toBe('60');
		expect(errorOf(refused)).toBe('the replay record is full, retry later');
		expect((await deliver(trigger, body, { id: 'msg_no_room_either' })).status).toBe(503);
		// The first event is still recorded: its retry is a replay, not a second run.
		expect((await deliver(trigger, body, { id: 'msg_first' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);

		const warnings = recordedLogs
			.slice(logsBefore)
			.filter((entry) => entry.level === 'warn' && entry.message.includes('refuses new events'));
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toContain(String(MAX_RECORDED_IDS));
	});
});
