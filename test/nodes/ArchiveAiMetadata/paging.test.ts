import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { jsonOf, resetState, runAi, sortBy, withSandbox } from './helpers';

/** 12,000 rows per view: Return All pages through all of them while the server fails now and then. */
const ROWS = 12_000;

const FAULTS = {
	status429: { every: 9, retryAfter: 1 },
	status5xx: { every: 5, code: 503 },
	dropConnection: { every: 13 },
};

function faultsInjected(sandbox: Sandbox): number {
	return Object.values(sandbox.counters.get().ai.faults).reduce((sum, count) => sum + count, 0);
}

describe('Return All over 12,000 rows with faults injected (seed naming, inline raw storage)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: ROWS, aiNaming: 'seed', aiRawStorage: 'inline' });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('face tasks: exactly the emulator rows, none lost or repeated, in task_id order', async () => {
		sandbox.faults.set('ai', FAULTS);
		const result = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'getAll',
			returnAll: true,
			output: 'selected',
			fields: ['task_id', 'pid', 'processed_time', 'status'],
			options: { pageSize: 500, maxConcurrency: 4 },
		});
		expect(result.error).toBeUndefined();
		const expected = sortBy(
			sandbox.data.ai.records('face_tasks', [
				'task_id',
				'pid',
				'processed_time',
				'status',
			]) as IDataObject[],
			['task_id'],
		);
		const rows = jsonOf(result);
		expect(rows).toHaveLength(ROWS);
		expect(rows).toEqual(expected);
		expect(faultsInjected(sandbox)).toBeGreaterThan(3);
		const faults = sandbox.counters.get().ai.faults;
		expect(faults['graphql.status429']).toBeGreaterThan(0);
		expect(faults['graphql.status5xx']).toBeGreaterThan(0);
	});

	it('face matches (no single unique column): the composite tiebreaker keeps paging exact under a sort with ties', async () => {
		sandbox.faults.set('ai', FAULTS);
		const columns = ['cluster_uuid', 'refset_person_id', 'matched_time', 'cp'];
		const result = await runAi(sandbox, {
			resource: 'faceMatch',
			operation: 'getAll',
			returnAll: true,
			// cp has only 8 values: almost every row ties with thousands of others on the user's sort.
			sort: { rules: [{ column: 'cp', direction: 'desc' }] },
			output: 'selected',
			fields: columns,
			options: { pageSize: 700, maxConcurrency: 3 },
		});
		expect(result.error).toBeUndefined();
		const rows = jsonOf(result);
		expect(rows).toHaveLength(ROWS);
		const keyOf = (row: IDataObject) =>
			`${row.cluster_uuid}|${row.refset_person_id}|${row.matched_time}`;
		expect(new Set(rows.map(keyOf)).size).toBe(ROWS);
		expect(rows.map(keyOf).sort()).toEqual(
			(sandbox.data.ai.records('face_matches', columns) as IDataObject[]).map(keyOf).sort(),
		);
		// The user's order holds across pages.
		const partners = rows.map((row) => String(row.cp));
		expect(partners).toEqual([...partners].sort().reverse());
		expect(faultsInjected(sandbox)).toBeGreaterThan(3);
	});
});

describe('Return All over 12,000 rows with faults injected (live naming, object-path raw storage)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: ROWS, aiNaming: 'live', aiRawStorage: 'paths' });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('image tasks under their live name face_image_tasks: exact', async () => {
		sandbox.faults.set('ai', FAULTS);
		const result = await runAi(sandbox, {
			resource: 'imageTask',
			operation: 'getAll',
			returnAll: true,
			output: 'selected',
			fields: ['task_id', 'cp'],
			options: { pageSize: 1000, maxConcurrency: 4 },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual(
			sortBy(sandbox.data.ai.records('face_image_tasks', ['task_id', 'cp']) as IDataObject[], [
				'task_id',
			]),
		);
	});

	it('NER tasks: raw columns holding object paths are returned as the paths, vendor column under its live name', async () => {
		sandbox.faults.set('ai', FAULTS);
		const columns = ['task_id', 'processed_json', 'nerengine_json'];
		const result = await runAi(sandbox, {
			resource: 'nerTask',
			operation: 'getAll',
			returnAll: true,
			output: 'selected',
			fields: columns,
			options: { pageSize: 800, maxConcurrency: 4 },
		});
		expect(result.error).toBeUndefined();
		const rows = jsonOf(result);
		expect(rows).toEqual(
			sortBy(sandbox.data.ai.records('ner_tasks', columns) as IDataObject[], ['task_id']),
		);
		const withPath = rows.find((row) => row.nerengine_json !== null);
		expect(withPath?.nerengine_json).toBe(`${withPath?.task_id}/nerengine.json`);
	});
});
