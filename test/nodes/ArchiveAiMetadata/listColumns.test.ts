import type { IDataObject } from 'n8n-workflow';

import { readList } from '../../../nodes/ArchiveAiMetadata/api/lists';
import { ArchiveAiMetadataTrigger } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import type { Sandbox } from '../../../dev/emulators';
import { PollHarness } from '../../../dev/harness/poll';
import { aiCredentials } from '../../../dev/harness/sandboxCredentials';
import { jsonOf, resetState, runAi, withSandbox } from './helpers';

/**
 * List columns arrive as JSON arrays (jsonb) or as Postgres array literals (`{a,b}`), depending on the column
 * type. Two emulators with the same data, one of each kind: the node's output must be the same arrays.
 */
describe('list columns: JSON arrays and Postgres array literals', () => {
	let literal: Sandbox;
	let json: Sandbox;
	beforeAll(async () => {
		literal = await withSandbox({ rows: 300, aiListFormat: 'literal' });
		json = await withSandbox({ rows: 300 });
	});
	afterAll(async () => Promise.all([literal.close(), json.close()]));
	beforeEach(async () => Promise.all([resetState(literal), resetState(json)]));

	it('the literal emulator really serves literal text', () => {
		const task = literal.data.ai.records('face_tasks').find((row) => row.cluster_uuids !== null);
		expect(task?.cluster_uuids).toMatch(/^\{[0-9a-f-]{36}(,[0-9a-f-]{36})*\}$/);
		expect(literal.data.ai.records('face_matches')[0].time_intervals).toMatch(
			/^\{\{[\d.]+,[\d.]+\}/,
		);
	});

	it.each([
		['faceTask', ['task_id', 'cluster_uuids', 'n_faces_per_frame', 'n_persons_per_frame']],
		['faceMatch', ['cluster_uuid', 'refset_person_id', 'matched_time', 'time_intervals']],
		['refsetPerson', ['id', 'public_links']],
	])('%s: Get Many outputs the same arrays from either form', async (resource, fields) => {
		const parameters = {
			resource,
			operation: 'getAll',
			returnAll: true,
			output: 'selected',
			fields,
		};
		const fromLiteral = await runAi(literal, parameters);
		const fromJson = await runAi(json, parameters);
		expect(fromLiteral.error).toBeUndefined();
		expect(jsonOf(fromJson).some((row) => Array.isArray(row[fields[fields.length - 1]]))).toBe(
			true,
		);
		expect(jsonOf(fromLiteral)).toEqual(jsonOf(fromJson));
	});

	it('Get by PID finds matches through literal cluster lists exactly as through JSON ones', async () => {
		const pids = [
			...new Set(json.data.ai.records('face_tasks', ['pid']).map((row) => String(row.pid))),
		].slice(0, 80);
		const parameters = { resource: 'faceMatch', operation: 'getByPid', pid: '={{ $json.pid }}' };
		const input = pids.map((pid) => ({ pid }));
		const fromLiteral = await runAi(literal, parameters, { input });
		const fromJson = await runAi(json, parameters, { input });
		expect(fromLiteral.error).toBeUndefined();
		expect(fromJson.outputs[0].length).toBeGreaterThan(20);
		expect(fromLiteral.outputs[0]).toEqual(fromJson.outputs[0]);
	});

	it('the trigger emits arrays too', async () => {
		const trigger = new PollHarness({
			nodeType: new ArchiveAiMetadataTrigger(),
			parameters: { view: 'face_tasks', statuses: [], output: 'raw' },
			credentials: aiCredentials(literal),
		});
		expect((await trigger.poll()).items).toBeNull();
		const [touched] = literal.data.ai.touch('face_tasks', 1);
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		const row = outcome.items?.[0][0].json as IDataObject;
		expect(row.task_id).toBe(touched.task_id);
		expect(Array.isArray(row.cluster_uuids)).toBe(true);
		expect(`{${(row.cluster_uuids as string[]).join(',')}}`).toBe(touched.cluster_uuids);
	});

	it.each([
		['literal', 'not a list'],
		['literal', '{a,b'],
		['json', 42],
		['json', { a: 1 }],
	])('a %s list column holding %j fails loudly, naming the column', async (format, value) => {
		const sandbox = format === 'literal' ? literal : json;
		const [task] = sandbox.data.ai.insert('face_tasks', {
			values: { cluster_uuids: value, pid: `bad${format}pid` },
		});
		const getMany = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'getAll',
			filters: { taskIds: String(task.task_id) },
		});
		expect(getMany.error?.message).toMatch(
			/^Column "cluster_uuids" of face_tasks: expected a list \(a JSON array or a Postgres array literal such as \{a,b\}\), got /,
		);
		const byPid = await runAi(sandbox, {
			resource: 'faceMatch',
			operation: 'getByPid',
			pid: `bad${format}pid`,
		});
		expect(byPid.error?.message).toMatch(/^Column "cluster_uuids" of face_tasks: expected a list/);
	});
});

describe('Postgres array literal reading', () => {
	it.each<[string, 'text' | 'number', unknown[] | undefined]>([
		['{}', 'text', []],
		['{a,b}', 'text', ['a', 'b']],
		[
			' { a , "b c" , NULL, "NULL", "q\\"uote\\\\" } ',
			'text',
			['a', 'b c', null, 'NULL', 'q"uote\\'],
		],
		[
			'{{1.5,3},{5,7.25}}',
			'number',
			[
				[1.5, 3],
				[5, 7.25],
			],
		],
		['[0:1]={1,2}', 'number', [1, 2]],
		['{1,x}', 'number', undefined],
		['{a,b', 'text', undefined],
		['{a}b', 'text', undefined],
		['{,a}', 'text', undefined],
		['a,b', 'text', undefined],
	])('%j (%s)', (text, element, expected) => {
		expect(readList(text, element)).toEqual(expected);
	});
});
