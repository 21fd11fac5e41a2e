import type { IDataObject } from 'n8n-workflow';

import { ArchiveAiMetadataTrigger } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import type { AiNaming, Sandbox } from '../../../dev/emulators';
import { PollHarness } from '../../../dev/harness/poll';
import { aiCredentials } from '../../../dev/harness/sandboxCredentials';
import { jsonOf, resetState, runAi, sortBy, withSandbox } from './helpers';

/** A role that may not introspect: the node works with the documented names, like the trigger. */
describe.each<AiNaming>(['seed', 'live'])('without introspection (%s naming)', (naming) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 200, aiNaming: naming, aiIntrospection: false });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('the emulator refuses introspection as Hasura does', async () => {
		const result = await runAi(sandbox, {
			resource: 'customQuery',
			operation: 'execute',
			query: '{ face_tasks(limit: 1) { task_id } }',
		});
		expect(result.error?.message).toMatch(/__schema/);
	});

	it.each([
		['faceTask', 'face_tasks', ['task_id']],
		['imageTask', naming === 'live' ? 'face_image_tasks' : 'image_tasks', ['task_id']],
		['refsetPerson', 'refset_persons', ['id']],
	])(
		'%s: Get Many returns every row with the seed names (the published alias where the API uses it)',
		async (resource, view, key) => {
			const result = await runAi(sandbox, {
				resource,
				operation: 'getAll',
				returnAll: true,
				filters: { status: resource === 'refsetPerson' ? 'active' : 'succeeded' },
			});
			expect(result.error).toBeUndefined();
			const status = resource === 'refsetPerson' ? 'active' : 'succeeded';
			const expected = sortBy(
				(sandbox.data.ai.records(view) as IDataObject[]).filter((row) => row.status === status),
				key,
			);
			expect(jsonOf(result).map((row) => row[key[0]])).toEqual(expected.map((row) => row[key[0]]));
		},
	);

	it('Get, Count and Get by PID on matches work too', async () => {
		const task = sandbox.data.ai.records('face_tasks').find((row) => row.status === 'succeeded')!;
		const get = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'get',
			taskId: String(task.task_id),
		});
		expect(get.error).toBeUndefined();
		expect(jsonOf(get)[0].task_id).toBe(task.task_id);

		const count = await runAi(sandbox, {
			resource: 'speechTask',
			operation: 'count',
			filters: { status: 'failed' },
		});
		expect(count.error).toBeUndefined();
		expect(jsonOf(count)[0].count).toBe(
			sandbox.data.ai.records('speech_tasks').filter((row) => row.status === 'failed').length,
		);

		const byPid = await runAi(sandbox, {
			resource: 'faceMatch',
			operation: 'getByPid',
			pid: String(task.pid),
		});
		expect(byPid.error).toBeUndefined();
		const clusters = new Set(
			sandbox.data.ai
				.records('face_tasks')
				.filter((row) => row.pid === task.pid)
				.flatMap((row) => (row.cluster_uuids as string[] | null) ?? []),
		);
		const expected = sandbox.data.ai
			.records('face_matches')
			.filter((row) => clusters.has(String(row.cluster_uuid)));
		expect(
			jsonOf(byPid)
				.map((row) => row.cluster_uuid)
				.sort(),
		).toEqual(expected.map((row) => row.cluster_uuid).sort());
	});

	it('a name the API spells differently fails with what to do', async () => {
		const result = await runAi(sandbox, { resource: 'nerTask', operation: 'getAll', limit: 2 });
		if (naming === 'seed') {
			expect(result.error).toBeUndefined();
			return;
		}
		// The live API calls the vendor column nerengine_json; the seed's extractor_json is unknown to it.
		expect(result.error?.message).toMatch(/extractor_json/);
		expect(result.error?.description).toMatch(
			/does not allow introspection.*"Fields to Return: Selected Fields"/,
		);
		const selected = await runAi(sandbox, {
			resource: 'nerTask',
			operation: 'getAll',
			limit: 2,
			output: 'selected',
			fields: ['task_id', 'nerengine_json'],
		});
		expect(selected.error).toBeUndefined();
		expect(jsonOf(selected)).toHaveLength(2);
	});

	it('the trigger finds the view under its published alias too', async () => {
		const trigger = new PollHarness({
			nodeType: new ArchiveAiMetadataTrigger(),
			parameters: { view: 'image_tasks', statuses: [] },
			credentials: aiCredentials(sandbox),
		});
		expect((await trigger.poll()).items).toBeNull();
		const touched = sandbox.data.ai.touch(
			naming === 'live' ? 'face_image_tasks' : 'image_tasks',
			2,
		);
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		expect(outcome.items?.[0].map((item) => item.json.task_id)).toEqual(
			touched.map((row) => row.task_id),
		);
	});
});
