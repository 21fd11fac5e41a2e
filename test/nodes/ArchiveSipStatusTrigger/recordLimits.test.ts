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

describe('a restarted process (its record knows nothing accepted before it started)', () => {
	const TOLERANCE = 300;
	const refusal = (startSeconds: number) =>
		`n8n started less than the Timestamp Tolerance (${TOLERANCE} s) ago: events signed before ${new Date((startSeconds + TOLERANCE + 1) * 1000).toISOString()} are refused so that a copy captured before the start cannot run again; retry with a fresh signature then`;

	it('refuses a copy of a delivery signed before it started, and runs the sender retry signed after the tolerance', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const captured = signedHeaders(SECRET, 'msg_before_restart', NOW_SECONDS - 10, body);
		acceptedIds.reset((NOW_SECONDS - 5) * 1000);

		for (let attempt = 0; attempt < 3; attempt++) {
			const replay = await postRaw(trigger.url, body, captured);
			expect(replay.status).toBe(503);
			expect(replay.headers['retry-after']).toBe(String(TOLERANCE - 4));
			expect(errorOf(replay)).toBe(refusal(NOW_SECONDS - 5));
		}
		expect(trigger.runs()).toHaveLength(0);

		// The sender signs each retry afresh; one signed after start + tolerance runs.
		acceptedIds.startedAtMs = (NOW_SECONDS - TOLERANCE - 1) * 1000;
		expect((await deliver(trigger, body, { id: 'msg_before_restart' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
		expect((await deliver(trigger, body, { id: 'msg_before_restart' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it("refuses a copy signed by a sender whose clock is ahead of n8n's, captured before the restart", async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		// Accepted before the restart: signed 60 s ahead of n8n's clock, within the tolerance.
		const captured = signedHeaders(SECRET, 'msg_clock_ahead', NOW_SECONDS + 60, body);
		expect((await postRaw(trigger.url, body, captured)).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
		// n8n restarts 10 s later: its record is empty.
		acceptedIds.reset((NOW_SECONDS + 10) * 1000);
		const replay = await postRaw(trigger.url, body, captured);
		expect(replay.status).toBe(503);
		expect(errorOf(replay)).toBe(refusal(NOW_SECONDS + 10));
		expect(trigger.runs()).toHaveLength(1);
	});

	it('refuses a copy captured in the same second as the restart', async () => {
		const trigger = await startTrigger();
		const body = sipEventBody();
		const captured = signedHeaders(SECRET, 'msg_same_second', NOW_SECONDS, body);
		expect((await postRaw(trigger.url, body, captured)).status).toBe(204);
		acceptedIds.reset(NOW_SECONDS * 1000 + 900);
		expect((await postRaw(trigger.url, body, captured)).status).toBe(503);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('follows a shorter Timestamp Tolerance: refused up to start + tolerance, accepted the second after', async () => {
		const trigger = await startTrigger({ parameters: { options: { toleranceSeconds: 30 } } });
		acceptedIds.reset((NOW_SECONDS - 30) * 1000);
		const atEdge = await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS });
		expect(atEdge.status).toBe(503);
		expect(atEdge.headers['retry-after']).toBe('1');
		acceptedIds.reset((NOW_SECONDS - 31) * 1000);
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('runs a test event at the Test URL right after a start (someone listening in the editor)', async () => {
		const trigger = await startTrigger({ mode: 'manual' });
		acceptedIds.reset(NOW_SECONDS * 1000);
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		expect(trigger.runs()).toHaveLength(1);
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
