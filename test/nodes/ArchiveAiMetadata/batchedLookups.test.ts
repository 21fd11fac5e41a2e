import type { OperationDefinitionNode } from 'graphql';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { forward, startTestOrigin } from '../../../dev/harness/testOrigin';
import type { TestCredentialsHelper } from '../../../dev/harness/credentialsHelper';
import { GraphqlClient } from '../../../nodes/shared/graphql/client';
import { aiCredentials, graphqlRequests, jsonOf, resetState, runAi, withSandbox } from './helpers';

// Get and Download Files look the records of all input items up together: the distinct ids in as few requests as
// the API allows (`task_id _in [...]`, 500 per request), each item still getting exactly its own record.

const MISSING = '00000000-0000-4000-8000-00000000beef';

/** `count` distinct UUIDs that no record has. */
function missingIds(count: number): string[] {
	return Array.from(
		{ length: count },
		(_unused, index) => `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
	);
}

/**
 * A loopback front to the AI emulator that counts the look-up requests (`ReadRows`) and the most it had open at
 * once; the emulator answers slowly, so requests sent together are open together.
 */
async function startLookupGauge(sandbox: Sandbox) {
	const gauge = { lookups: 0, maxInFlight: 0 };
	let inFlight = 0;
	const front = await startTestOrigin((request, res) => {
		if (request.body.toString('utf8').includes('query ReadRows')) {
			gauge.lookups++;
			gauge.maxInFlight = Math.max(gauge.maxInFlight, ++inFlight);
			res.on('close', () => inFlight--);
		}
		forward(request, res, sandbox.ai.baseUrl);
	});
	sandbox.faults.set('ai', { slowMs: 100 });
	const credentials: TestCredentialsHelper = aiCredentials(sandbox, {
		graphqlUrl: `${front.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`,
	});
	return { gauge, credentials, close: async () => await front.close() };
}

describe('batched look-ups across input items', () => {
	let sandbox: Sandbox;
	let tasks: IDataObject[];
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 1200, aiNaming: 'live' });
		tasks = sandbox.data.ai.records('speech_tasks') as IDataObject[];
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	const getByTaskId = {
		resource: 'speechTask',
		operation: 'get',
		taskId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		output: 'selected',
		fields: ['task_id', 'pid'],
	};

	it('Get: 1,000 items over 600 distinct tasks take 2 data requests, each item its own record', async () => {
		// Items repeat ids (as enrichment input does) and come in an order unrelated to the API's.
		const ids = Array.from({ length: 1000 }, (_unused, index) => tasks[(index * 7) % 600].task_id);
		const result = await runAi(sandbox, getByTaskId, { input: ids.map((id) => ({ id })) });
		expect(result.error).toBeUndefined();
		// Introspection, then 600 distinct ids in batches of 500: 2 requests (one item at a time took 1,000).
		expect(graphqlRequests(sandbox)).toBe(3);
		expect(result.outputs[0]).toEqual(
			ids.map((id, index) => {
				const task = tasks.find((row) => row.task_id === id) as IDataObject;
				return { json: { task_id: id, pid: task.pid }, pairedItem: { item: index } };
			}),
		);
	});

	it('Get: at most Max Concurrent Requests look-up batches in flight', async () => {
		// 1,200 distinct ids: 3 batches of at most 500.
		const ids = tasks.map((task) => String(task.task_id));
		expect(ids).toHaveLength(1200);
		const { gauge, credentials, close } = await startLookupGauge(sandbox);
		try {
			const result = await runAi(
				sandbox,
				{ ...getByTaskId, options: { maxConcurrency: 2 } },
				{ input: ids.map((id) => ({ id })), credentials },
			);
			expect(result.error).toBeUndefined();
			expect(jsonOf(result).map((row) => row.task_id)).toEqual(ids);
			expect(gauge.lookups).toBe(3);
			expect(gauge.maxInFlight).toBe(2);
		} finally {
			await close();
		}
	});

	it('Get: Selected Fields always carries the task ID, and a UUID matches in any letter case', async () => {
		const task = tasks[5];
		const result = await runAi(
			sandbox,
			{ ...getByTaskId, fields: ['pid'] },
			{ input: [{ id: String(task.task_id).toUpperCase() }] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ task_id: task.task_id, pid: task.pid }]);
		expect(Object.keys(jsonOf(result)[0])).toEqual(['task_id', 'pid']);
	});

	it('Get: not found and bad ids stay per item, with Continue On Fail and each When Not Found choice', async () => {
		const input = [
			{ id: tasks[1].task_id },
			{ id: MISSING },
			{ id: 'not-a-uuid' },
			{ id: '' },
			{ id: tasks[2].task_id },
		];
		const result = await runAi(
			sandbox,
			{ ...getByTaskId, options: { whenNotFound: 'error' } },
			{
				input,
				settings: { continueOnFail: true },
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{ json: { task_id: tasks[1].task_id, pid: tasks[1].pid }, pairedItem: { item: 0 } },
			{
				json: expect.objectContaining({
					error: `No speech task with task_id "${MISSING}" was found`,
				}),
				pairedItem: { item: 1 },
			},
			{
				json: expect.objectContaining({
					error: 'Parameter "Task ID": must be a UUID, got "not-a-uuid"',
				}),
				pairedItem: { item: 2 },
			},
			{
				json: expect.objectContaining({ error: expect.stringContaining('Parameter "Task ID"') }),
				pairedItem: { item: 3 },
			},
			{ json: { task_id: tasks[2].task_id, pid: tasks[2].pid }, pairedItem: { item: 4 } },
		]);
		// Introspection and one look-up for the three well-formed ids; one id has no record, so the page comes back
		// short and one more (empty) page makes sure no server-side row cap cut it.
		expect(graphqlRequests(sandbox)).toBe(3);

		// The default: no item, and a hint in the output panel that names the key and the option.
		await resetState(sandbox);
		const empty = await runAi(sandbox, getByTaskId, {
			input: [{ id: MISSING }, { id: tasks[3].task_id }],
		});
		expect(empty.outputs[0]).toEqual([
			{ json: { task_id: tasks[3].task_id, pid: tasks[3].pid }, pairedItem: { item: 1 } },
		]);
		expect(empty.hints).toEqual([
			`No speech task with task_id "${MISSING}" was found, so its input item has no output. To get an item with found: false instead, change When Not Found under Options.`,
		]);

		await resetState(sandbox);
		const marked = await runAi(
			sandbox,
			{ ...getByTaskId, options: { whenNotFound: 'notFoundItem' } },
			{ input: [{ id: MISSING }, { id: tasks[3].task_id }] },
		);
		expect(marked.outputs[0]).toEqual([
			{ json: { task_id: MISSING, found: false }, pairedItem: { item: 0 } },
			{
				json: { task_id: tasks[3].task_id, pid: tasks[3].pid, found: true },
				pairedItem: { item: 1 },
			},
		]);
		expect(marked.hints).toEqual([]);
	});

	it('Get: without Continue On Fail, the first failing item in input order stops the node', async () => {
		const result = await runAi(sandbox, getByTaskId, {
			input: [{ id: tasks[1].task_id }, { id: 'not-a-uuid' }, { id: MISSING }],
		});
		expect(result.error?.message).toBe('Parameter "Task ID": must be a UUID, got "not-a-uuid"');
	});

	it('Get: a group whose first item is not item 0 reads its records for that item, so errors name it', async () => {
		const request = jest.spyOn(GraphqlClient.prototype, 'request');
		try {
			// Item 0 fails its own check; items 1 and 2 are one group.
			const result = await runAi(sandbox, getByTaskId, {
				input: [{ id: '' }, { id: tasks[1].task_id }, { id: tasks[2].task_id }],
				settings: { continueOnFail: true },
			});
			expect(result.error).toBeUndefined();
			const reads = request.mock.calls.filter(
				([{ document }]) =>
					(document.definitions[0] as OperationDefinitionNode).name?.value === 'ReadRows',
			);
			expect(reads).toHaveLength(1);
			expect(reads[0][1]).toBe(1);
		} finally {
			request.mockRestore();
		}
	});

	it('Get: items whose parameters differ are grouped, each group with its own columns', async () => {
		const input = [
			{ id: tasks[1].task_id, fields: 'pid' },
			{ id: tasks[2].task_id, fields: 'status' },
			{ id: tasks[3].task_id, fields: 'pid' },
		];
		const result = await runAi(
			sandbox,
			{ ...getByTaskId, fields: '={{ $json.fields }}' },
			{ input },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{ task_id: tasks[1].task_id, pid: tasks[1].pid },
			{ task_id: tasks[2].task_id, status: tasks[2].status },
			{ task_id: tasks[3].task_id, pid: tasks[3].pid },
		]);
		// Introspection, then one look-up per group.
		expect(graphqlRequests(sandbox)).toBe(3);
	});
});

describe('Download Files looks the tasks of all items up together', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 60, aiNaming: 'live', aiRawStorage: 'inline' });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('one look-up for every item, each item its own task files; a missing task fails only its item', async () => {
		const succeeded = (sandbox.data.ai.records('speech_tasks') as IDataObject[])
			.filter((row) => row.status === 'succeeded')
			.slice(0, 3)
			.map((row) => String(row.task_id));
		const input = [succeeded[0], MISSING, succeeded[1], succeeded[2], succeeded[0]].map((id) => ({
			id,
		}));
		const result = await runAi(
			sandbox,
			{
				resource: 'speechTask',
				operation: 'downloadFiles',
				taskId: '={{ $json.id }}',
				files: ['transcript_txt'],
			},
			{ input, settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		const items = result.outputs[0];
		expect(items.map((item) => item.pairedItem)).toEqual(input.map((_row, item) => ({ item })));
		expect(items[1].json.error).toBe(`No speech task with task_id "${MISSING}" was found`);
		for (const index of [0, 2, 3, 4]) {
			const taskId = input[index].id;
			expect(items[index].json.task_id).toBe(taskId);
			expect(
				Buffer.from(String(items[index].binary?.transcript_txt.data), 'base64').toString(),
			).toBe(sandbox.data.ai.fileContent(`${taskId}/transcript.txt`)?.content);
		}
		// Introspection, one look-up for the four distinct ids, one more page because one id has no task.
		expect(graphqlRequests(sandbox)).toBe(3);
	});

	it('at most Max Concurrent Requests look-up batches in flight', async () => {
		// 1,001 distinct ids (none has a task): 3 batches of at most 500.
		const ids = missingIds(1001);
		const { gauge, credentials, close } = await startLookupGauge(sandbox);
		try {
			const result = await runAi(
				sandbox,
				{
					resource: 'speechTask',
					operation: 'downloadFiles',
					taskId: '={{ $json.id }}',
					files: ['transcript_txt'],
					options: { maxConcurrency: 2 },
				},
				{ input: ids.map((id) => ({ id })), settings: { continueOnFail: true }, credentials },
			);
			expect(result.error).toBeUndefined();
			expect(jsonOf(result).map((row) => row.error)).toEqual(
				ids.map((id) => `No speech task with task_id "${id}" was found`),
			);
			expect(gauge.lookups).toBeGreaterThanOrEqual(3);
			expect(gauge.maxInFlight).toBe(2);
		} finally {
			await close();
		}
	});
});
