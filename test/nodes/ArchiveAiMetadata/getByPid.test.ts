import type { OperationDefinitionNode } from 'graphql';
import type { IDataObject } from 'n8n-workflow';

import type { AiNaming, Sandbox } from '../../../dev/emulators';
import { AiSession } from '../../../nodes/ArchiveAiMetadata/api/viewSource';
import { GraphqlClient } from '../../../nodes/shared/graphql/client';
import { graphqlRequests, resetState, runAi, sortBy, withSandbox } from './helpers';

function pairedIndex(item: { pairedItem?: unknown }): number {
	return (item.pairedItem as { item: number }).item;
}

/** Output rows grouped by the input item they are paired with. */
function byItem(
	outputs: Array<{ json: IDataObject; pairedItem?: unknown }>,
): Map<number, IDataObject[]> {
	const groups = new Map<number, IDataObject[]>();
	for (const item of outputs) {
		const list = groups.get(pairedIndex(item)) ?? [];
		list.push(item.json);
		groups.set(pairedIndex(item), list);
	}
	return groups;
}

describe.each<AiNaming>(['seed', 'live'])('Get by PID (%s naming)', (naming) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 3000, aiNaming: naming });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('answers 1,000 input items with at most 10 requests, each item paired to its own rows', async () => {
		const allPids = [
			...new Set(sandbox.data.ai.records('face_tasks', ['pid']).map((row) => String(row.pid))),
		];
		// 1,000 items over 900 distinct PIDs: some items share a PID, and some PIDs have no face task.
		const pids = Array.from({ length: 1000 }, (_, index) =>
			index % 10 === 9 ? allPids[index - 1] : allPids[index],
		);
		pids[5] = 'zzzznotapid';
		const result = await runAi(
			sandbox,
			{
				resource: 'faceTask',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				output: 'selected',
				fields: ['task_id', 'pid'],
			},
			{ input: pids.map((pid) => ({ pid })) },
		);
		expect(result.error).toBeUndefined();
		// Introspection included.
		expect(graphqlRequests(sandbox)).toBeLessThanOrEqual(10);
		const groups = byItem(result.outputs[0]);
		const records = sandbox.data.ai.records('face_tasks', ['task_id', 'pid']) as IDataObject[];
		for (const [index, pid] of pids.entries()) {
			const expected = sortBy(
				records.filter((row) => row.pid === pid),
				['task_id'],
			);
			expect(groups.get(index) ?? []).toEqual(expected);
		}
		expect(groups.has(5)).toBe(false);
	});

	it.each([
		['imageTask', 'image_tasks'],
		['nerTask', 'ner_tasks'],
	])('%s: each item gets exactly the rows of its PID, parsed', async (resource, view) => {
		const records = sandbox.data.ai.records(view) as IDataObject[];
		const pids = [...new Set(records.map((row) => String(row.pid)))].slice(0, 40);
		const result = await runAi(
			sandbox,
			{ resource, operation: 'getByPid', pid: '={{ $json.pid }}', options: { batchSize: 15 } },
			{ input: pids.map((pid) => ({ pid })) },
		);
		expect(result.error).toBeUndefined();
		const groups = byItem(result.outputs[0]);
		const parse = (row: IDataObject) => {
			const out = { ...row };
			for (const column of ['processed_json', 'extractor_json', 'nerengine_json']) {
				if (typeof out[column] === 'string') out[column] = JSON.parse(out[column]);
			}
			return out;
		};
		for (const [index, pid] of pids.entries()) {
			expect(groups.get(index)).toEqual(
				sortBy(
					records.filter((row) => row.pid === pid),
					['task_id'],
				).map(parse),
			);
		}
	});

	it('speech tasks: unknown PIDs give {pid, found: false} when asked, rows found carry found: true; other fields come parsed', async () => {
		const pid = String(
			sandbox.data.ai
				.records('speech_tasks', ['pid', 'status'])
				.find((row) => row.status === 'succeeded')?.pid,
		);
		const result = await runAi(
			sandbox,
			{
				resource: 'speechTask',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				output: 'simplified',
				options: { whenNotFound: 'notFoundItem' },
			},
			{ input: [{ pid: 'nosuchpid0' }, { pid }] },
		);
		expect(result.error).toBeUndefined();
		const items = result.outputs[0];
		expect(items[0]).toEqual({
			json: { pid: 'nosuchpid0', found: false },
			pairedItem: { item: 0 },
		});
		const rest = items.slice(1);
		const expected = sortBy(
			(sandbox.data.ai.records('speech_tasks') as IDataObject[]).filter((row) => row.pid === pid),
			['task_id'],
		);
		expect(rest.map((item) => item.json.task_id)).toEqual(expected.map((row) => row.task_id));
		expect(rest.every((item) => pairedIndex(item) === 1)).toBe(true);
		expect(rest.every((item) => item.json.found === true)).toBe(true);
		expect(Object.keys(rest[0].json)).toContain('transcript_txt');
	});

	it.each([
		['faceMatch', 'face_matches', 'face_tasks'],
		['imageMatch', 'image_matches', 'image_tasks'],
	])(
		"%s: matches carry no pid, so they are found through the PID's task clusters",
		async (resource, matchView, taskView) => {
			const tasks = sandbox.data.ai.records(taskView, ['pid', 'cluster_uuids']) as IDataObject[];
			const matches = sandbox.data.ai.records(matchView) as IDataObject[];
			const matchedClusters = new Set(matches.map((row) => String(row.cluster_uuid)));
			const pids = [
				...new Set(
					tasks
						.filter((task) =>
							((task.cluster_uuids as string[] | null) ?? []).some((cluster) =>
								matchedClusters.has(cluster),
							),
						)
						.map((task) => String(task.pid)),
				),
			].slice(0, 120);
			const result = await runAi(
				sandbox,
				{ resource, operation: 'getByPid', pid: '={{ $json.pid }}', options: { batchSize: 50 } },
				{ input: pids.map((pid) => ({ pid })) },
			);
			expect(result.error).toBeUndefined();
			const groups = byItem(result.outputs[0]);
			const keyOf = (row: IDataObject) =>
				`${row.cluster_uuid}|${row.refset_person_id}|${row.matched_time}`;
			for (const [index, pid] of pids.entries()) {
				const clusters = new Set(
					tasks
						.filter((task) => task.pid === pid)
						.flatMap((task) => (task.cluster_uuids as string[] | null) ?? []),
				);
				const expected = matches
					.filter((row) => clusters.has(String(row.cluster_uuid)))
					.map(keyOf)
					.sort();
				expect(expected.length).toBeGreaterThan(0);
				expect((groups.get(index) ?? []).map(keyOf).sort()).toEqual(expected);
			}
			// Introspection, 3 task batches of 50 PIDs, and one match query per 1,000 clusters; each batch's last page
			// is confirmed by an empty one.
			const pidSet = new Set(pids);
			const clusterCount = new Set(
				tasks
					.filter((task) => pidSet.has(String(task.pid)))
					.flatMap((task) => (task.cluster_uuids as string[] | null) ?? []),
			).size;
			expect(graphqlRequests(sandbox)).toBeLessThanOrEqual(
				1 + 3 * 2 + Math.ceil(clusterCount / 1000) * 2,
			);
		},
	);
});

describe('Get by PID input checks', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 200 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('an empty PID stops the run before any request', async () => {
		const result = await runAi(
			sandbox,
			{ resource: 'nerTask', operation: 'getByPid', pid: '={{ $json.pid }}' },
			{ input: [{ pid: 'abc' }, { pid: '  ' }] },
		);
		expect(result.error?.message).toBe('Parameter "PID": must not be empty');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(sandbox.counters.get().ai.requests.graphql ?? 0).toBe(0);
	});

	it('with Continue On Fail, the item with an empty PID gets an error item and the others their rows', async () => {
		const pid = String(sandbox.data.ai.records('ner_tasks', ['pid'])[0].pid);
		const result = await runAi(
			sandbox,
			{
				resource: 'nerTask',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				output: 'selected',
				fields: ['task_id'],
			},
			{ input: [{ pid: '' }, { pid }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		const items = result.outputs[0];
		expect(items[0]).toEqual({
			json: { error: 'Parameter "PID": must not be empty' },
			pairedItem: { item: 0 },
		});
		const expected = (
			sandbox.data.ai.records('ner_tasks', ['task_id', 'pid']) as IDataObject[]
		).filter((row) => row.pid === pid);
		expect(items.slice(1).map((item) => item.json)).toEqual(
			sortBy(expected, ['task_id']).map((row) => ({ task_id: row.task_id })),
		);
		expect(items.slice(1).every((item) => pairedIndex(item) === 1)).toBe(true);
	});

	it.each([
		['nerTask', 1],
		['faceMatch', 2],
	])(
		'%s: a group whose first item is not item 0 opens its views and reads its rows for that item, so errors name it',
		async (resource, views) => {
			const openView = jest.spyOn(AiSession.prototype, 'openView');
			const request = jest.spyOn(GraphqlClient.prototype, 'request');
			try {
				const pids = sandbox.data.ai
					.records('face_tasks', ['pid'])
					.slice(0, 2)
					.map((row) => String(row.pid));
				// Item 0 fails its own check; items 1 and 2 are one group.
				const result = await runAi(
					sandbox,
					{ resource, operation: 'getByPid', pid: '={{ $json.pid }}' },
					{
						input: [{ pid: '' }, ...pids.map((pid) => ({ pid }))],
						settings: { continueOnFail: true },
					},
				);
				expect(result.error).toBeUndefined();
				// The view asked for, and for matches the task view their PIDs are found through.
				expect(openView.mock.calls.map((call) => call[2])).toEqual(Array(views).fill(1));
				const reads = request.mock.calls.filter(
					([{ document }]) =>
						(document.definitions[0] as OperationDefinitionNode).name?.value === 'ReadRows',
				);
				expect(reads.length).toBeGreaterThanOrEqual(views);
				expect(reads.map((call) => call[1])).toEqual(reads.map(() => 1));
			} finally {
				openView.mockRestore();
				request.mockRestore();
			}
		},
	);

	it('with Continue On Fail, an API failure gives every item an error item', async () => {
		sandbox.faults.set('ai', { status5xx: { every: 1, code: 500 } });
		const result = await runAi(
			sandbox,
			{
				resource: 'faceTask',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				options: { maxRetries: 1 },
			},
			{ input: [{ pid: 'a' }, { pid: 'b' }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		const items = result.outputs[0];
		expect(items.map(pairedIndex)).toEqual([0, 1]);
		expect(items[0].json.error).toBe('AI Metadata API: the server failed (HTTP 500) after 1 retry');
	});
});
