import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ArchiveAiMetadataTrigger } from '../../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { startSandbox } from '../../../../dev/emulators';
import type { Sandbox } from '../../../../dev/emulators';
import { PollHarness } from '../../../../dev/harness/poll';
import type { PollOutcome } from '../../../../dev/harness/poll';
import { aiCredentials } from '../../../../dev/harness/sandboxCredentials';
import { useSandbox } from '../../../../dev/harness/sandboxFixture';
import {
	MATCH_SHAPE,
	TASK_SHAPE,
	after,
	identity,
	micros,
	newestRecord,
	recordsAfter,
} from './oracle';
import type { ViewShape } from './oracle';

const sandbox = useSandbox({ rows: 400 });

function triggerFor(
	parameters: INodeParameters,
	staticData?: IDataObject,
	target: Sandbox = sandbox(),
): PollHarness {
	return new PollHarness({
		nodeType: new ArchiveAiMetadataTrigger(),
		parameters,
		credentials: aiCredentials(target),
		staticData,
	});
}

function emitted(outcome: PollOutcome): IDataObject[] {
	if (outcome.error) throw outcome.error;
	return (outcome.items?.[0] ?? []).map((item) => item.json);
}

function cursorOf(harness: PollHarness): {
	view: string;
	time: string;
	key: Array<string | null> | null;
	memory?: unknown;
} {
	return harness.nodeStaticData.cursor as never;
}

function identities(shape: ViewShape, rows: Array<Record<string, unknown>>): string[] {
	return rows.map((row) => identity(shape, row));
}

/** Activates a trigger (first poll) and checks that it emitted nothing. */
async function activate(harness: PollHarness): Promise<void> {
	const first = await harness.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toBeNull();
}

describe('Archive AI Metadata Trigger: polling against the emulator', () => {
	it('starts at the newest existing record on first activation and then emits exactly the new ones', async () => {
		const trigger = triggerFor({ view: 'face_tasks', statuses: [] });
		await activate(trigger);
		const newest = newestRecord(sandbox(), 'face_tasks', TASK_SHAPE);
		expect(cursorOf(trigger)).toEqual({
			view: 'face_tasks',
			time: newest.processed_time,
			key: [newest.task_id],
			// The rows of the Late Rows Window before it count as emitted (here: the newest one).
			memory: { floor: expect.any(String), entries: [expect.any(String)] },
		});

		expect((await trigger.poll()).items).toBeNull();
		const touched = sandbox().data.ai.touch('face_tasks', 3);
		const rows = emitted(await trigger.poll());
		expect(rows.map((row) => row.task_id)).toEqual(touched.map((row) => row.task_id));
		expect((await trigger.poll()).items).toBeNull();
	});

	it('emits every new row once over consecutive polls; across a restart it repeats the last batch, skipping none', async () => {
		const trigger = triggerFor({ view: 'speech_tasks', statuses: [], output: 'raw' });
		await activate(trigger);
		const seen: IDataObject[] = [];
		/** Polls once and checks the poll against the dataset as it is now, after the cursor the poll starts from. */
		const pollAndCheck = async () => {
			const expected = recordsAfter(sandbox(), 'speech_tasks', TASK_SHAPE, cursorOf(trigger));
			const rows = emitted(await trigger.poll());
			expect(identities(TASK_SHAPE, rows)).toEqual(identities(TASK_SHAPE, expected));
			seen.push(...rows);
			return rows;
		};

		sandbox().data.ai.touch('speech_tasks', 4);
		expect(await pollAndCheck()).toHaveLength(4);
		sandbox().data.ai.touch('speech_tasks', 2);
		sandbox().data.ai.touch('speech_tasks', 5);
		const lastBatch = await pollAndCheck();
		expect(lastBatch).toHaveLength(7);
		// n8n restarts. The cursor saved with the last emission is the one before it: that run's end (which moved the
		// cursor past its 7 rows) was never saved, because nothing was emitted after it. So they come again, first.
		trigger.restart();
		sandbox().data.ai.touch('speech_tasks', 3);
		const afterRestart = await pollAndCheck();
		expect(afterRestart).toHaveLength(10);
		expect(identities(TASK_SHAPE, afterRestart.slice(0, 7))).toEqual(
			identities(TASK_SHAPE, lastBatch),
		);
		expect((await trigger.poll()).items).toBeNull();

		// A row processed again comes again (with its new time); the only (time, task) pairs emitted twice are the
		// restart's repeats.
		expect(new Set(identities(TASK_SHAPE, seen)).size).toBe(seen.length - 7);
		// Output "Raw": raw JSON columns arrive parsed, transcripts as text.
		expect(typeof seen[0].transcript_json).toBe('object');
		expect(typeof seen[0].transcript_srt).toBe('string');
	});

	it('Output "Selected Fields" emits the chosen columns plus the time and key columns the cursor needs', async () => {
		const trigger = triggerFor({
			view: 'face_tasks',
			statuses: [],
			output: 'selected',
			fields: ['pid', 'n_faces'],
		});
		await activate(trigger);
		const touched = sandbox().data.ai.touch('face_tasks', 2);
		const rows = emitted(await trigger.poll());
		expect(rows.map((row) => Object.keys(row).sort())).toEqual(
			touched.map(() => ['n_faces', 'pid', 'processed_time', 'task_id']),
		);
		expect(rows.map((row) => row.pid)).toEqual(touched.map((row) => row.pid));

		const unknown = triggerFor({
			view: 'face_tasks',
			statuses: [],
			output: 'selected',
			fields: ['pid', 'no_such_column'],
		});
		await activate(unknown);
		sandbox().data.ai.touch('face_tasks', 1);
		// The same check and words as the action node's Selected Fields.
		expect((await unknown.poll()).error?.message).toMatch(
			/^Parameter "Field Names or IDs": unknown field "no_such_column" for face_tasks; known: .*\btask_id\b/,
		);
		const empty = triggerFor({ view: 'face_tasks', statuses: [], output: 'selected', fields: [] });
		expect((await empty.poll()).error?.message).toBe(
			'Parameter "Field Names or IDs": is empty: choose at least one field, or choose Simplified or Raw in "Output"',
		);
	});

	it('neither repeats nor skips rows that share a timestamp, even when a poll ends between them', async () => {
		const trigger = triggerFor({
			view: 'ner_tasks',
			statuses: [],
			options: { maxRecordsPerPoll: 1 },
		});
		await activate(trigger);
		const start = cursorOf(trigger);
		const at = after(start.time, 3600);
		sandbox().data.ai.touch('ner_tasks', 3, { at });
		sandbox().data.ai.touch('ner_tasks', 3, { at }); // the same three moments again: pairs of equal timestamps
		const expected = recordsAfter(sandbox(), 'ner_tasks', TASK_SHAPE, start);
		const times = expected.map((row) => micros(String(row.processed_time)));
		expect(new Set(times).size).toBeLessThan(times.length);

		const seen: IDataObject[] = [];
		for (let poll = 0; poll < expected.length; poll++) {
			const rows = emitted(await trigger.poll());
			expect(rows).toHaveLength(1);
			seen.push(...rows);
		}
		expect((await trigger.poll()).items).toBeNull();
		expect(identities(TASK_SHAPE, seen)).toEqual(identities(TASK_SHAPE, expected));
	});

	it('orders matches by matched_time and their composite key, with equal times split across polls', async () => {
		const trigger = triggerFor({ view: 'face_matches', options: { maxRecordsPerPoll: 1 } });
		await activate(trigger);
		const start = cursorOf(trigger);
		// Every column but the time and the list time_intervals: cluster, person, score, wiki id, name, cp.
		expect(start.key).toHaveLength(6);
		const at = after(start.time, 60);
		sandbox().data.ai.touch('face_matches', 3, { at });
		sandbox().data.ai.touch('face_matches', 3, { at });
		const expected = recordsAfter(sandbox(), 'face_matches', MATCH_SHAPE, start);

		const seen: IDataObject[] = [];
		for (let poll = 0; poll < expected.length; poll++) seen.push(...emitted(await trigger.poll()));
		expect((await trigger.poll()).items).toBeNull();
		expect(identities(MATCH_SHAPE, seen)).toEqual(identities(MATCH_SHAPE, expected));
		expect(Object.keys(seen[0])).toEqual(
			expect.arrayContaining([
				'cluster_uuid',
				'refset_person_id',
				'matched_time',
				'refset_person_name',
			]),
		);
		expect(seen[0]).not.toHaveProperty('time_intervals'); // simplified
	});

	it('carries rows over the "Max Records per Poll" limit to the next polls, paging within each poll', async () => {
		const trigger = triggerFor({
			view: 'image_tasks',
			statuses: ['succeeded'],
			options: { maxRecordsPerPoll: 3, pageSize: 2 },
		});
		await activate(trigger);
		const touched = sandbox().data.ai.touch('image_tasks', 7);
		const polls = [
			emitted(await trigger.poll()),
			emitted(await trigger.poll()),
			emitted(await trigger.poll()),
		];
		expect(polls.map((rows) => rows.length)).toEqual([3, 3, 1]);
		expect(polls.flat().map((row) => row.task_id)).toEqual(touched.map((row) => row.task_id));
		expect((await trigger.poll()).items).toBeNull();
	});

	it('emits one item holding all records when "Emit As" says so', async () => {
		const trigger = triggerFor({ view: 'image_tasks', options: { emitAs: 'oneItem' } });
		await activate(trigger);
		const touched = sandbox().data.ai.touch('image_tasks', 4);
		const outcome = await trigger.poll();
		expect(outcome.items?.[0]).toHaveLength(1);
		const item = emitted(outcome)[0];
		expect(item.count).toBe(4);
		expect((item.records as IDataObject[]).map((row) => row.task_id)).toEqual(
			touched.map((row) => row.task_id),
		);
	});

	it('filters by status and content partner, from "Start From" on first activation', async () => {
		const startFrom = '2025-01-01T00:00:00Z';
		const partner = String(sandbox().data.ai.records('face_tasks')[0].cp);
		const failedOnly = triggerFor({
			view: 'face_tasks',
			statuses: ['failed'],
			options: { startFrom },
		});
		const failed = emitted(await failedOnly.poll());
		const expectedFailed = recordsAfter(
			sandbox(),
			'face_tasks',
			TASK_SHAPE,
			{ time: startFrom, key: null },
			(row) => row.status === 'failed',
		);
		expect(expectedFailed.length).toBeGreaterThan(0);
		expect(identities(TASK_SHAPE, failed)).toEqual(identities(TASK_SHAPE, expectedFailed));

		const onePartner = triggerFor({
			view: 'face_tasks',
			statuses: ['succeeded'],
			contentPartners: [partner],
			options: { startFrom },
		});
		const rows = emitted(await onePartner.poll());
		const expected = recordsAfter(
			sandbox(),
			'face_tasks',
			TASK_SHAPE,
			{ time: startFrom, key: null },
			(row) => row.status === 'succeeded' && row.cp === partner,
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(identities(TASK_SHAPE, rows)).toEqual(identities(TASK_SHAPE, expected));
	});

	it('starts over when "Start From" changes, and keeps its cursor otherwise', async () => {
		const firstStart = '2025-06-01T00:00:00Z';
		const trigger = triggerFor({
			view: 'face_tasks',
			statuses: [],
			options: { startFrom: firstStart },
		});
		const first = emitted(await trigger.poll());
		expect(first.length).toBeGreaterThan(0);
		expect((await trigger.poll()).items).toBeNull();

		const laterStart = '2025-06-15T12:00:00+02:00';
		trigger.setParameters({ view: 'face_tasks', statuses: [], options: { startFrom: laterStart } });
		const again = emitted(await trigger.poll());
		const expected = recordsAfter(sandbox(), 'face_tasks', TASK_SHAPE, {
			time: '2025-06-15T10:00:00Z',
			key: null,
		});
		expect(identities(TASK_SHAPE, again)).toEqual(identities(TASK_SHAPE, expected));
	});

	it('shows the newest matching record in manual mode without touching the cursor', async () => {
		const trigger = triggerFor({ view: 'face_tasks', statuses: ['failed'] });
		const manual = await trigger.poll({ mode: 'manual' });
		const newestFailed = newestRecord(
			sandbox(),
			'face_tasks',
			TASK_SHAPE,
			(row) => row.status === 'failed',
		);
		expect(emitted(manual).map((row) => row.task_id)).toEqual([newestFailed.task_id]);
		expect(manual.nodeStaticData).toEqual({});

		await activate(trigger);
		const cursor = cursorOf(trigger);
		sandbox().data.ai.touch('face_tasks', 2);
		await trigger.poll({ mode: 'manual' });
		expect(cursorOf(trigger)).toEqual(cursor);
	});

	it('says so in manual mode when nothing matches the filters', async () => {
		const trigger = triggerFor({ view: 'face_tasks', contentPartners: ['OR-nobody00'] });
		const outcome = await trigger.poll({ mode: 'manual' });
		expect(outcome.error).toBeInstanceOf(NodeOperationError);
		expect(outcome.error?.message).toMatch(/No records match/);
	});

	it('surfaces server failures as NodeApiError and keeps the cursor, so the next poll loses nothing', async () => {
		const trigger = triggerFor({
			view: 'face_tasks',
			statuses: [],
			options: { maxRetries: 0, pageSize: 2 },
		});
		await activate(trigger);
		const cursor = cursorOf(trigger);
		const touched = sandbox().data.ai.touch('face_tasks', 5);

		sandbox().faults.set('ai', { status5xx: { every: 2, code: 503 } });
		const failed = await trigger.poll();
		expect(failed.error).toBeInstanceOf(NodeApiError);
		expect(failed.error?.httpCode).toBe('503');
		expect(cursorOf(trigger)).toEqual(cursor);

		sandbox().faults.clear();
		const rows = emitted(await trigger.poll());
		expect(rows.map((row) => row.task_id)).toEqual(touched.map((row) => row.task_id));
	});

	it('retries transient failures within a poll and still emits every row once', async () => {
		const trigger = triggerFor({
			view: 'face_tasks',
			statuses: [],
			options: { pageSize: 1, maxConcurrency: 3 },
		});
		await activate(trigger);
		const touched = sandbox().data.ai.touch('face_tasks', 6);
		sandbox().faults.set('ai', { status429: { every: 3, retryAfter: 0 } });
		const rows = emitted(await trigger.poll());
		expect(rows.map((row) => row.task_id)).toEqual(touched.map((row) => row.task_id));
		expect(sandbox().counters.get().ai.statuses['429']).toBeGreaterThan(0);
	});

	it('reports a rejected login as NodeApiError without the password', async () => {
		const credentials = aiCredentials(sandbox(), { password: 'wrong-secret-pw' });
		const trigger = new PollHarness({
			nodeType: new ArchiveAiMetadataTrigger(),
			parameters: { view: 'face_tasks' },
			credentials,
		});
		const outcome = await trigger.poll();
		expect(outcome.error).toBeInstanceOf(NodeApiError);
		expect(
			JSON.stringify({ message: outcome.error?.message, description: outcome.error?.description }),
		).not.toContain('wrong-secret-pw');
		expect(outcome.nodeStaticData).toEqual({});
	});

	it('rejects bad parameters before sending any request', async () => {
		const cases: Array<[INodeParameters, RegExp]> = [
			[{ view: 'face_tasks', options: { startFrom: 'last tuesday' } }, /Start From/],
			[{ view: 'face_tasks', options: { maxRecordsPerPoll: 0 } }, /Max Records per Poll/],
			[{ view: 'face_tasks', options: { maxConcurrency: 99 } }, /Max Concurrent Requests/],
			[{ view: 'refset_people' }, /View/],
			[{ view: 'face_tasks', options: { lateRowsWindow: -1 } }, /Late Rows Window \(Minutes\)/],
			[
				{ view: 'face_tasks', options: { reemitAfterMinutes: 0 } },
				/Parameter "Re-Emit Unfinished Run After \(Minutes\)": must be/,
			],
		];
		for (const [parameters, message] of cases) {
			const outcome = await triggerFor(parameters).poll();
			expect(outcome.error).toBeInstanceOf(NodeOperationError);
			expect(outcome.error?.message).toMatch(message);
		}
		const requests = sandbox().counters.get().ai.requests;
		expect((requests.graphql ?? 0) + (requests.token ?? 0)).toBe(0);
	});

	it('works with the live names of the API (face_image_tasks)', async () => {
		const live = await startSandbox({ rows: 60, aiNaming: 'live' });
		try {
			const trigger = triggerFor({ view: 'image_tasks', statuses: [] }, undefined, live);
			await activate(trigger);
			const touched = live.data.ai.touch('face_image_tasks', 2);
			const rows = emitted(await trigger.poll());
			expect(rows.map((row) => row.task_id)).toEqual(touched.map((row) => row.task_id));
		} finally {
			await live.close();
		}
	});
});
