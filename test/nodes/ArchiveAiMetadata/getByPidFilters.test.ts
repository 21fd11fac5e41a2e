import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { resetState, runAi, withSandbox } from './helpers';

/** Get by PID on matches: rows say which PID they were found for, and Filters narrow every batch. */
describe('Get by PID: pid on match rows and Filters', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 800 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	/** PIDs whose face tasks have matches, and the matches of each, from the dataset. */
	function matchesByPid(limit: number): Map<string, IDataObject[]> {
		const tasks = sandbox.data.ai.records('face_tasks', ['pid', 'cluster_uuids']) as IDataObject[];
		const matches = sandbox.data.ai.records('face_matches') as IDataObject[];
		const byPid = new Map<string, IDataObject[]>();
		for (const task of tasks) {
			const clusters = new Set((task.cluster_uuids as string[] | null) ?? []);
			const found = matches.filter((row) => clusters.has(String(row.cluster_uuid)));
			if (found.length === 0) continue;
			byPid.set(String(task.pid), [...(byPid.get(String(task.pid)) ?? []), ...found]);
		}
		return new Map([...byPid].slice(0, limit));
	}

	const keyOf = (row: IDataObject) =>
		`${row.pid}|${row.cluster_uuid}|${row.refset_person_id}|${row.matched_time}`;

	it("each item's own Filters: items with different filters are looked up in groups of their own", async () => {
		const expectedByPid = matchesByPid(40);
		const pids = [...expectedByPid.keys()];
		// Even items ask for strong matches only, odd items for every match: an expression per item.
		const minScoreOf = (index: number) => (index % 2 === 0 ? 0.8 : 0);
		const result = await runAi(
			sandbox,
			{
				resource: 'faceMatch',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				filters: { minMatchScore: '={{ $json.minScore }}' },
			},
			{ input: pids.map((pid, index) => ({ pid, minScore: minScoreOf(index) })) },
		);
		expect(result.error).toBeUndefined();
		const expected = pids.flatMap((pid, index) =>
			(expectedByPid.get(pid) ?? [])
				.filter((row) => (row.match_score as number) >= minScoreOf(index))
				.map((row) => ({ ...row, pid })),
		);
		const strongOnly = pids.filter((_pid, index) => index % 2 === 0);
		expect(expected.filter((row) => strongOnly.includes(String(row.pid))).length).toBeLessThan(
			strongOnly.flatMap((pid) => expectedByPid.get(pid) ?? []).length,
		);
		expect(result.outputs[0].map((item) => keyOf(item.json)).sort()).toEqual(
			expected.map(keyOf).sort(),
		);
	});

	it('each match row carries the pid of the input item it answers, and Min Match Score is ANDed with the batch', async () => {
		const expectedByPid = matchesByPid(60);
		const pids = [...expectedByPid.keys()];
		const result = await runAi(
			sandbox,
			{
				resource: 'faceMatch',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				filters: { minMatchScore: 0.8 },
				options: { batchSize: 25 },
			},
			{ input: pids.map((pid) => ({ pid })) },
		);
		expect(result.error).toBeUndefined();
		const items = result.outputs[0];
		for (const item of items) {
			expect(item.json.pid).toBe(pids[(item.pairedItem as { item: number }).item]);
		}
		const expected = pids.flatMap((pid) =>
			(expectedByPid.get(pid) ?? [])
				.filter((row) => (row.match_score as number) >= 0.8)
				.map((row) => ({ ...row, pid })),
		);
		expect(expected.length).toBeGreaterThan(10);
		expect(expected.length).toBeLessThan([...expectedByPid.values()].flat().length);
		expect(items.map((item) => keyOf(item.json)).sort()).toEqual(expected.map(keyOf).sort());
	});

	it('task views take the same Filters (here Status and Title Contains), without a PID filter of their own', async () => {
		const records = sandbox.data.ai.records('speech_tasks') as IDataObject[];
		const pids = [...new Set(records.map((row) => String(row.pid)))].slice(0, 200);
		const result = await runAi(
			sandbox,
			{
				resource: 'speechTask',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				filters: { status: 'failed', title: 'journaal' },
				output: 'selected',
				fields: ['task_id', 'pid'],
			},
			{ input: pids.map((pid) => ({ pid })) },
		);
		expect(result.error).toBeUndefined();
		const expected = records.filter(
			(row) =>
				pids.includes(String(row.pid)) &&
				row.status === 'failed' &&
				String(row.title).toLowerCase().includes('journaal'),
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(result.outputs[0].map((item) => item.json.task_id).sort()).toEqual(
			expected.map((row) => row.task_id).sort(),
		);
	});

	it('a bad filter value stops the run before any request', async () => {
		const result = await runAi(sandbox, {
			resource: 'faceMatch',
			operation: 'getByPid',
			pid: 'abc',
			filters: { timeFrom: 'soon' },
		});
		expect(result.error?.message).toMatch(/^Parameter "Time From"/);
		expect(sandbox.counters.get().ai.requests.graphql ?? 0).toBe(0);
	});
});
