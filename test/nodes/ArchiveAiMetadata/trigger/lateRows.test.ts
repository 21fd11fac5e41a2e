import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAX_REMEMBERED_ROWS } from '../../../../nodes/ArchiveAiMetadata/trigger/lateRows';
import { ArchiveAiMetadataTrigger } from '../../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { PollHarness } from '../../../../dev/harness/poll';
import type { PollOutcome } from '../../../../dev/harness/poll';
import { aiCredentials } from '../../../../dev/harness/sandboxCredentials';
import { useSandbox } from '../../../../dev/harness/sandboxFixture';
import { micros } from './oracle';

const sandbox = useSandbox({ rows: 300 });

function triggerFor(parameters: INodeParameters): PollHarness {
	return new PollHarness({
		nodeType: new ArchiveAiMetadataTrigger(),
		parameters,
		credentials: aiCredentials(sandbox()),
	});
}

function emitted(outcome: PollOutcome): IDataObject[] {
	if (outcome.error) throw outcome.error;
	return (outcome.items?.[0] ?? []).map((item) => item.json);
}

/** An ISO moment `seconds` before (negative: after) a Hasura timestamp. */
function before(timestamp: unknown, seconds: number): string {
	return new Date(Math.floor(micros(String(timestamp)) / 1000) - seconds * 1000).toISOString();
}

const ids = (rows: Array<Record<string, unknown>>) => rows.map((row) => row.task_id).sort();

describe('Archive AI Metadata Trigger: rows that appear behind the watermark', () => {
	it('emits rows inserted behind the newest emitted time within the window, each once (after a restart the last batch repeats)', async () => {
		const trigger = triggerFor({ view: 'speech_tasks', statuses: [] });
		expect((await trigger.poll()).items).toBeNull();
		const touched = sandbox().data.ai.touch('speech_tasks', 3);
		expect(ids(emitted(await trigger.poll()))).toEqual(ids(touched));
		const watermark = touched[2].processed_time;

		// Committed late: their time is two minutes before rows already emitted.
		const late = sandbox().data.ai.insert('speech_tasks', { count: 2, at: before(watermark, 120) });
		expect(ids(emitted(await trigger.poll()))).toEqual(ids(late));
		expect((await trigger.poll()).items).toBeNull();

		// A task re-processed with an older clock is a changed row: emitted again with its new time.
		const [reprocessed] = sandbox().data.ai.touch('speech_tasks', 1, {
			at: before(watermark, 200),
		});
		expect(ids(emitted(await trigger.poll()))).toEqual([reprocessed.task_id]);

		// After a restart the last batch comes again (its run's end was not saved: nothing was emitted after it).
		trigger.restart();
		expect(ids(emitted(await trigger.poll()))).toEqual([reprocessed.task_id]);
		expect((await trigger.poll()).items).toBeNull();
		const newer = sandbox().data.ai.touch('speech_tasks', 2);
		expect(ids(emitted(await trigger.poll()))).toEqual(ids(newer));
	});

	it('leaves rows older than the window alone, and a longer window catches them', async () => {
		const short = triggerFor({ view: 'ner_tasks', statuses: [] });
		const long = triggerFor({ view: 'ner_tasks', statuses: [], options: { lateRowsWindow: 30 } });
		expect((await short.poll()).items).toBeNull();
		expect((await long.poll()).items).toBeNull();
		const touched = sandbox().data.ai.touch('ner_tasks', 1);
		expect(emitted(await short.poll())).toHaveLength(1);
		expect(emitted(await long.poll())).toHaveLength(1);

		const old = sandbox().data.ai.insert('ner_tasks', {
			at: before(touched[0].processed_time, 20 * 60),
		});
		expect((await short.poll()).items).toBeNull();
		expect(ids(emitted(await long.poll()))).toEqual(ids(old));
		expect((await long.poll()).items).toBeNull();
	});

	it('with Max Records per Poll, late rows and new rows all come, oldest first, none twice', async () => {
		const trigger = triggerFor({
			view: 'face_tasks',
			statuses: [],
			options: { maxRecordsPerPoll: 2 },
		});
		expect((await trigger.poll()).items).toBeNull();
		const first = sandbox().data.ai.touch('face_tasks', 2);
		expect(emitted(await trigger.poll())).toHaveLength(2);
		const late = sandbox().data.ai.insert('face_tasks', {
			count: 3,
			at: before(first[1].processed_time, 60),
		});
		const next = sandbox().data.ai.touch('face_tasks', 2);
		const seen: IDataObject[] = [];
		for (let poll = 0; poll < 3; poll++) seen.push(...emitted(await trigger.poll()));
		expect((await trigger.poll()).items).toBeNull();
		expect(seen.map((row) => row.task_id)).toEqual([
			...ids(late),
			...next.map((row) => row.task_id),
		]);
	});

	it('a window of 0 still catches late rows at exactly the newest time', async () => {
		const trigger = triggerFor({
			view: 'image_tasks',
			statuses: [],
			options: { lateRowsWindow: 0 },
		});
		expect((await trigger.poll()).items).toBeNull();
		const [touched] = sandbox().data.ai.touch('image_tasks', 1);
		expect(emitted(await trigger.poll())).toHaveLength(1);
		const sameTime = sandbox().data.ai.insert('image_tasks', {
			count: 2,
			at: String(touched.processed_time),
		});
		const behind = sandbox().data.ai.insert('image_tasks', {
			at: before(touched.processed_time, 1),
		});
		expect(ids(emitted(await trigger.poll()))).toEqual(ids(sameTime));
		expect(behind).toHaveLength(1);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('remembers a bounded number of rows: beyond it the floor rises, and nothing repeats', async () => {
		const trigger = triggerFor({ view: 'face_matches', options: { maxRecordsPerPoll: 20_000 } });
		expect((await trigger.poll()).items).toBeNull();
		const start = sandbox().data.ai.touch('face_matches', 1)[0].matched_time;
		expect(emitted(await trigger.poll())).toHaveLength(1);
		// More rows than the memory holds, all within the window (a millisecond apart).
		const count = MAX_REMEMBERED_ROWS + 100;
		const startMs = Date.parse(before(start, 0));
		for (let index = 1; index <= count; index++) {
			sandbox().data.ai.insert('face_matches', { at: new Date(startMs + index).toISOString() });
		}
		expect(emitted(await trigger.poll())).toHaveLength(count);
		const cursor = trigger.nodeStaticData.cursor as {
			memory: { floor: string; entries: string[] };
		};
		expect(cursor.memory.entries.length).toBeLessThanOrEqual(MAX_REMEMBERED_ROWS);
		expect(micros(cursor.memory.floor)).toBeGreaterThan(micros(String(start)));
		expect((await trigger.poll()).items).toBeNull();
		// Above the floor a late row is caught; at or below it, it is not looked at (no repeats either way).
		const aboveFloor = sandbox().data.ai.insert('face_matches', {
			at: new Date(startMs + count - 5).toISOString(),
		});
		sandbox().data.ai.insert('face_matches', { at: new Date(startMs + 10).toISOString() });
		const rows = emitted(await trigger.poll());
		expect(rows.map((row) => row.cluster_uuid)).toEqual([aboveFloor[0].cluster_uuid]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('watches reference-set persons by modified_at', async () => {
		const trigger = triggerFor({
			view: 'refset_persons',
			statuses: ['succeeded'],
			contentPartners: ['OR-nobody00'],
		});
		expect((await trigger.poll()).items).toBeNull();
		const modified = sandbox().data.ai.touch('refset_persons', 2);
		const rows = emitted(await trigger.poll());
		expect(rows.map((row) => row.id)).toEqual(modified.map((row) => row.id));
		expect(rows[0]).toEqual(
			expect.objectContaining({ label: modified[0].label, modified_at: modified[0].modified_at }),
		);
		const late = sandbox().data.ai.insert('refset_persons', {
			at: before(modified[1].modified_at, 30),
		});
		expect(emitted(await trigger.poll()).map((row) => row.id)).toEqual([late[0].id]);
	});
});
