import type { INodeParameters } from 'n8n-workflow';

import { ArchiveAiMetadataTrigger } from '../../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { PollHarness } from '../../../../dev/harness/poll';
import type { PollOutcome } from '../../../../dev/harness/poll';
import { aiCredentials } from '../../../../dev/harness/sandboxCredentials';
import { useSandbox } from '../../../../dev/harness/sandboxFixture';

// The trigger moves its cursor only once the run a poll started has finished, so n8n dying between a poll and its
// execution repeats rows and never skips them. The harness plays n8n's part: it saves static data when a poll emits
// (as ActiveWorkflowManager's __emit does) and settles the run's done promise as the test says.

const sandbox = useSandbox({ rows: 200 });
const VIEW = 'face_tasks';

function triggerFor(options: INodeParameters = {}): PollHarness {
	const parameters: INodeParameters = { view: VIEW, statuses: [], options };
	return new PollHarness({
		nodeType: new ArchiveAiMetadataTrigger(),
		parameters,
		credentials: aiCredentials(sandbox()),
	});
}

function emittedIds(outcome: PollOutcome): unknown[] {
	if (outcome.error) throw outcome.error;
	return (outcome.items?.[0] ?? []).map((item) => item.json.task_id);
}

const touch = (count: number) =>
	sandbox()
		.data.ai.touch(VIEW, count)
		.map((row) => row.task_id);

async function activated(options: INodeParameters = {}): Promise<PollHarness> {
	const trigger = triggerFor(options);
	expect((await trigger.poll()).items).toBeNull();
	return trigger;
}

describe('Archive AI Metadata Trigger: the cursor moves when the run has finished', () => {
	it('emits through n8n with a done promise, and waits while the run is going', async () => {
		const trigger = await activated();
		const first = touch(3);
		const poll = await trigger.poll({ run: 'hold' });
		expect(emittedIds(poll)).toEqual(first);
		expect(poll.run?.confirmed).toBe(true);

		// New rows appear while the run is going: polls emit nothing and ask the API nothing.
		const second = touch(2);
		const requestsBefore = sandbox().counters.get().ai.requests.graphql ?? 0;
		expect((await trigger.poll()).items).toBeNull();
		expect((await trigger.poll()).items).toBeNull();
		expect(sandbox().counters.get().ai.requests.graphql ?? 0).toBe(requestsBefore);

		await poll.run!.finish();
		expect(emittedIds(await trigger.poll())).toEqual(second);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('n8n dies before the run finished: after the restart the rows come again, none skipped', async () => {
		const trigger = await activated();
		const first = touch(3);
		expect(emittedIds(await trigger.poll({ run: 'hold' }))).toEqual(first);
		// Static data was saved with the emission (n8n does that), but holds the cursor before these rows.
		trigger.restart();
		const second = touch(2);
		expect(emittedIds(await trigger.poll())).toEqual([...first, ...second]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('n8n dies after a finished run was saved with a later emission: nothing repeats', async () => {
		const trigger = await activated();
		const first = touch(3);
		expect(emittedIds(await trigger.poll())).toEqual(first);
		const second = touch(2);
		expect(emittedIds(await trigger.poll({ run: 'hold' }))).toEqual(second);
		trigger.restart();
		// Only the unfinished second run repeats; the first was committed and saved with the second emission.
		expect(emittedIds(await trigger.poll())).toEqual(second);
	});

	it('a run n8n reports as failed to start is emitted again at the next poll', async () => {
		const trigger = await activated();
		const first = touch(2);
		const poll = await trigger.poll({ run: 'hold' });
		await poll.run!.fail();
		expect(emittedIds(await trigger.poll())).toEqual(first);
	});

	it('a run never reported (n8n could not create it) is given up after "Re-Emit Unfinished Run After"', async () => {
		const trigger = await activated({ reemitAfterMinutes: 2 });
		const first = touch(2);
		expect(emittedIds(await trigger.poll({ run: 'lost' }))).toEqual(first);
		const start = Date.now();
		const clock = jest.spyOn(Date, 'now');
		try {
			clock.mockReturnValue(start + 119_000);
			expect((await trigger.poll()).items).toBeNull();
			clock.mockReturnValue(start + 121_000);
			expect(emittedIds(await trigger.poll())).toEqual(first);
		} finally {
			clock.mockRestore();
		}
	});

	it('a finished run of an older setting does not move the cursor of a new one', async () => {
		const trigger = await activated();
		touch(2);
		const poll = await trigger.poll({ run: 'hold' });
		// The workflow is edited to start from another moment while the run is going: the cursor starts over there.
		trigger.setParameters({
			view: VIEW,
			statuses: [],
			options: { startFrom: '2000-01-01T00:00:00Z' },
		});
		await poll.run!.finish();
		const all = await trigger.poll({ run: 'hold' });
		expect(emittedIds(all).length).toBe(sandbox().data.ai.rows(VIEW).length);
	});

	it('n8n refusing the emission outright leaves the cursor and nothing to wait for', async () => {
		const trigger = await activated();
		const first = touch(2);
		const refused = await trigger.poll({ run: 'refuse' });
		expect(refused.error?.message).toMatch(/refused/);
		expect(emittedIds(await trigger.poll())).toEqual(first);
	});

	it('a manual run ("Fetch Test Event") returns the newest record and starts no run', async () => {
		const trigger = await activated();
		touch(1);
		const manual = await trigger.poll({ mode: 'manual' });
		expect(manual.items?.[0]).toHaveLength(1);
		expect(manual.run).toBeUndefined();
	});
});

describe('Archive AI Metadata Trigger: a poll time while the last poll is still reading', () => {
	afterEach(() => sandbox().faults.clear());

	// n8n starts a poll at every poll time without waiting for the last one (a large backlog over a slow API takes
	// longer than the interval); both would read from the same cursor and emit the same rows twice.
	it('the later poll does nothing, and the rows go out once', async () => {
		const trigger = await activated({ pageSize: 10, maxConcurrency: 1 });
		const rows = touch(40);
		sandbox().faults.set('ai', { slowMs: 100 });
		const first = trigger.poll({ run: 'hold' });
		// The first poll is reading its pages (4 pages + the empty one, 100 ms each) when the next poll time comes.
		await new Promise((resolve) => setTimeout(resolve, 150));
		const second = await trigger.poll({ run: 'hold' });
		expect(second.error).toBeUndefined();
		expect(second.items).toBeNull();
		const firstOutcome = await first;
		expect(emittedIds(firstOutcome)).toEqual(rows);
		sandbox().faults.clear();

		// Once the first poll has ended, the poll times after it work as before.
		const more = touch(3);
		await firstOutcome.run!.finish();
		expect(emittedIds(await trigger.poll())).toEqual(more);
	});

	it('a poll that failed releases the trigger for the next poll time', async () => {
		const trigger = await activated({ maxRetries: 0 });
		const rows = touch(2);
		sandbox().faults.set('ai', { status5xx: { every: 1, code: 503 } });
		const failed = await trigger.poll({ run: 'hold' });
		expect(failed.error).toBeDefined();
		sandbox().faults.clear();
		expect(emittedIds(await trigger.poll())).toEqual(rows);
	});
});
