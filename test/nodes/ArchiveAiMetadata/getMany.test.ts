import type { IDataObject } from 'n8n-workflow';

import { parseTimestamptz } from '../../../dev/emulators/core/timestamps';
import type { AiNaming, Sandbox } from '../../../dev/emulators';
import { graphqlRequests, jsonOf, resetState, runAi, sortBy, withSandbox } from './helpers';

/** Resource -> canonical view, unique key and time column, as the node should treat them. */
const VIEWS = [
	{ resource: 'faceTask', view: 'face_tasks', key: ['task_id'], time: 'processed_time' },
	{ resource: 'imageTask', view: 'image_tasks', key: ['task_id'], time: 'processed_time' },
	{
		resource: 'faceMatch',
		view: 'face_matches',
		key: ['cluster_uuid', 'refset_person_id', 'matched_time'],
		time: 'matched_time',
	},
	{
		resource: 'imageMatch',
		view: 'image_matches',
		key: ['cluster_uuid', 'refset_person_id', 'matched_time'],
		time: 'matched_time',
	},
	{ resource: 'refsetPerson', view: 'refset_persons', key: ['id'], time: 'modified_at' },
	{ resource: 'speechTask', view: 'speech_tasks', key: ['task_id'], time: 'processed_time' },
	{ resource: 'nerTask', view: 'ner_tasks', key: ['task_id'], time: 'processed_time' },
];

const RAW_JSON_COLUMNS = [
	'processed_json',
	'extractor_json',
	'nerengine_json',
	'transcript_json',
	'audio_classification_json',
	'statistics',
];

/** A record as the node outputs it by default: raw JSON text columns parsed. */
function parsed(record: IDataObject): IDataObject {
	const out: IDataObject = { ...record };
	for (const column of RAW_JSON_COLUMNS) {
		if (typeof out[column] === 'string' && /^[[{]/.test(out[column]))
			out[column] = JSON.parse(out[column]);
	}
	return out;
}

const micros = (value: unknown) => parseTimestamptz(String(value)) as number;

describe.each<AiNaming>(['seed', 'live'])('Get Many with %s naming', (naming) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 400, aiNaming: naming });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it.each(VIEWS)(
		'$resource: Return All gives every row, parsed, in unique-key order',
		async ({ resource, view, key }) => {
			const result = await runAi(sandbox, {
				resource,
				operation: 'getAll',
				returnAll: true,
				options: { pageSize: 150 },
			});
			expect(result.error).toBeUndefined();
			const expected = sortBy(sandbox.data.ai.records(view) as IDataObject[], key).map(parsed);
			expect(jsonOf(result)).toEqual(expected);
			// Every output item is paired to the one input item.
			expect(
				result.outputs[0].every((item) => (item.pairedItem as { item: number }).item === 0),
			).toBe(true);
		},
	);

	it('outputs the NER vendor column under its live name, parsed', async () => {
		const vendor = naming === 'seed' ? 'extractor_json' : 'nerengine_json';
		const result = await runAi(sandbox, {
			resource: 'nerTask',
			operation: 'getAll',
			limit: 5,
			filters: { status: 'succeeded' },
		});
		expect(result.error).toBeUndefined();
		const rows = jsonOf(result);
		expect(rows).toHaveLength(5);
		for (const row of rows) {
			expect(typeof row[vendor]).toBe('object');
			expect(row).not.toHaveProperty(naming === 'seed' ? 'nerengine_json' : 'extractor_json');
		}
	});

	it('combines friendly filters and an advanced Hasura filter, sorted by the user column then the key', async () => {
		const partner = String(sandbox.data.ai.records('face_tasks', ['cp'])[0].cp);
		const from = '2024-01-01T00:00:00Z';
		const to = '2025-01-01T00:00:00Z';
		const result = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'getAll',
			returnAll: true,
			// Status and Content Partner as the editor's multi-selects send them.
			filters: {
				status: ['succeeded'],
				contentPartner: [partner, 'OR-none'],
				timeFrom: from,
				timeTo: to,
				where: JSON.stringify({ _or: [{ n_faces: { _gte: 5 } }, { n_persons: { _eq: 0 } }] }),
			},
			sort: { rules: [{ column: 'n_faces', direction: 'desc' }] },
			output: 'selected',
			fields: ['task_id', 'n_faces', 'n_persons'],
			options: { pageSize: 7 },
		});
		expect(result.error).toBeUndefined();
		const expected = (sandbox.data.ai.records('face_tasks') as IDataObject[])
			.filter((row) => row.status === 'succeeded' && row.cp === partner)
			.filter(
				(row) =>
					micros(row.processed_time) >= micros(from) && micros(row.processed_time) < micros(to),
			)
			.filter((row) => (row.n_faces as number) >= 5 || row.n_persons === 0)
			.sort(
				(a, b) =>
					(b.n_faces as number) - (a.n_faces as number) ||
					String(a.task_id).localeCompare(String(b.task_id)),
			)
			.map((row) => ({ task_id: row.task_id, n_faces: row.n_faces, n_persons: row.n_persons }));
		expect(expected.length).toBeGreaterThan(0);
		expect(jsonOf(result)).toEqual(expected);
	});

	it('filters matches by score threshold and person name', async () => {
		const resource = 'imageMatch';
		const result = await runAi(sandbox, {
			resource,
			operation: 'getAll',
			returnAll: true,
			filters: { minMatchScore: 0.9, personName: 'a' },
			output: 'simplified',
		});
		expect(result.error).toBeUndefined();
		const expected = (sandbox.data.ai.records('image_matches') as IDataObject[]).filter(
			(row) =>
				(row.match_score as number) >= 0.9 &&
				String(row.refset_person_name).toLowerCase().includes('a'),
		);
		const rows = jsonOf(result);
		expect(rows.map((row) => `${row.cluster_uuid}|${row.matched_time}`).sort()).toEqual(
			expected.map((row) => `${row.cluster_uuid}|${row.matched_time}`).sort(),
		);
		// Simplify: the handful of fields most people want.
		expect(Object.keys(rows[0]).sort()).toEqual(
			[
				'cluster_uuid',
				'cp',
				'match_score',
				'matched_time',
				'refset_person_id',
				'refset_person_name',
				'refset_person_wiki_id',
			].sort(),
		);
	});

	it('keeps raw JSON columns as text when asked', async () => {
		const result = await runAi(sandbox, {
			resource: 'speechTask',
			operation: 'getAll',
			limit: 3,
			filters: { status: 'succeeded' },
			options: { keepRawJson: true },
		});
		expect(result.error).toBeUndefined();
		for (const row of jsonOf(result)) {
			expect(typeof row.transcript_json).toBe('string');
			expect(typeof row.statistics).toBe('string');
		}
	});

	it('Limit returns the first rows in stable order', async () => {
		const result = await runAi(sandbox, {
			resource: 'refsetPerson',
			operation: 'getAll',
			limit: 25,
			options: { pageSize: 10 },
		});
		expect(result.error).toBeUndefined();
		const expected = sortBy(sandbox.data.ai.records('refset_persons') as IDataObject[], [
			'id',
		]).slice(0, 25);
		expect(jsonOf(result)).toEqual(expected);
	});
});

describe('Get Many input checks', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 50 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it.each([
		[{ limit: 0 }, 'Parameter "Limit": must be a whole number from 1 to 2147483647'],
		[{ limit: 2_147_483_648 }, 'Parameter "Limit"'],
		[{ limit: 5, options: { pageSize: 1.5 } }, 'Parameter "Page Size"'],
		[
			{ limit: 5, filters: { where: '{"status": ' } },
			'Parameter "Advanced Filter (JSON)": is not valid JSON',
		],
		[
			{ limit: 5, filters: { where: '[1]' } },
			'Parameter "Advanced Filter (JSON)": must be a JSON object',
		],
		[{ limit: 5, filters: { timeFrom: 'yesterday-ish' } }, 'Parameter "Time From"'],
		[
			{ limit: 5, output: 'selected', fields: [] },
			'Parameter "Field Names or IDs": is empty: choose at least one field',
		],
	])('refuses %j before any request', async (parameters, message) => {
		const result = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'getAll',
			...parameters,
		});
		expect(result.error?.message).toContain(message);
		expect(sandbox.counters.get().ai.requests.token ?? 0).toBe(0);
		expect(graphqlRequests(sandbox)).toBe(0);
	});

	it.each([
		[
			{ output: 'selected', fields: ['task_id', 'no_such_field'] },
			'Parameter "Field Names or IDs": unknown field "no_such_field"',
		],
		[
			{ sort: { rules: [{ column: 'nope', direction: 'asc' }] } },
			'Parameter "Sort": unknown column "nope"',
		],
		[
			{ filters: { where: '{"no_such_column": {"_eq": 1}}' } },
			'Parameter "Advanced Filter (JSON)": "no_such_column" is neither a column of this view nor an operator such as _eq or _gte',
		],
		[
			{ filters: { where: '{"status": {"_almost": "x"}}' } },
			'Parameter "Advanced Filter (JSON)": "_almost" at status is neither a column of this view nor an operator such as _eq or _gte',
		],
	])('refuses %j after reading the schema, before any data query', async (parameters, message) => {
		const result = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'getAll',
			limit: 5,
			...parameters,
		});
		expect(result.error?.message).toContain(message);
		// Only the introspection query was sent.
		expect(graphqlRequests(sandbox)).toBe(1);
	});

	it('turns a GraphQL error into an API error carrying the server message and code', async () => {
		const result = await runAi(sandbox, {
			resource: 'speechTask',
			operation: 'getAll',
			limit: 5,
			filters: { where: '{"title": {"_regex": "("}}' },
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^AI Metadata API: /);
		expect(result.error?.message).toBe('AI Metadata API: invalid regular expression');
		expect(result.error?.description).toContain('error code "data-exception"');
		expect(result.error?.description).toContain(
			'at $.selectionSet.speech_tasks.args.where.title._regex',
		);
	});

	it('with Continue On Fail, a failing item becomes an error item paired to it and the others still run', async () => {
		const result = await runAi(
			sandbox,
			{ resource: 'faceTask', operation: 'getAll', limit: '={{ $json.limit }}' },
			{ input: [{ limit: 2 }, { limit: -1 }, { limit: 1 }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		const items = result.outputs[0];
		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 0, 1, 2]);
		expect(items[2].json.error).toContain('Parameter "Limit"');
		expect(items[0].json.task_id).toBeDefined();
	});
});
