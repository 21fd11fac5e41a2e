import type { IDataObject } from 'n8n-workflow';

import type { AiNaming, Sandbox } from '../../../dev/emulators';
import { aiCredentials, graphqlRequests, jsonOf, resetState, runAi, withSandbox } from './helpers';

const GET_VIEWS: Array<[string, string, string, string]> = [
	['faceTask', 'face_tasks', 'taskId', 'task_id'],
	['imageTask', 'image_tasks', 'taskId', 'task_id'],
	['refsetPerson', 'refset_persons', 'personId', 'id'],
	['speechTask', 'speech_tasks', 'taskId', 'task_id'],
	['nerTask', 'ner_tasks', 'taskId', 'task_id'],
];

describe.each<AiNaming>(['seed', 'live'])('Get (%s naming)', (naming) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 80, aiNaming: naming });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it.each(GET_VIEWS)(
		'%s: one record by its identifier, one item per input item',
		async (resource, view, parameter, column) => {
			const records = sandbox.data.ai.records(view) as IDataObject[];
			const wanted = [records[7], records[42]];
			const result = await runAi(
				sandbox,
				{
					resource,
					operation: 'get',
					// As the editor saves the resource locator's By ID mode.
					[parameter]: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					output: 'selected',
					fields: [column, 'status'],
				},
				{ input: wanted.map((record) => ({ id: record[column] })) },
			);
			expect(result.error).toBeUndefined();
			expect(result.outputs[0]).toEqual(
				wanted.map((record, index) => ({
					json: { [column]: record[column], status: record.status },
					pairedItem: { item: index },
				})),
			);
		},
	);

	it('outputs no item with a hint when no record has the identifier, or fails naming it when asked to', async () => {
		const record = (sandbox.data.ai.records('speech_tasks') as IDataObject[])[3];
		const missing = '00000000-0000-4000-8000-00000000beef';
		const input = [{ id: missing }, { id: record.task_id }];
		const parameters = {
			resource: 'speechTask',
			operation: 'get',
			taskId: '={{ $json.id }}',
			output: 'selected',
			fields: ['task_id'],
		};

		const failed = await runAi(
			sandbox,
			{ ...parameters, options: { whenNotFound: 'error' } },
			{ input },
		);
		expect(failed.error?.message).toBe(`No speech task with task_id "${missing}" was found`);
		expect(failed.error?.description).toMatch(/change When Not Found under Options/);

		const empty = await runAi(sandbox, parameters, { input });
		expect(empty.error).toBeUndefined();
		expect(empty.hints).toHaveLength(1);
		expect(empty.outputs[0]).toEqual([
			{ json: { task_id: record.task_id }, pairedItem: { item: 1 } },
		]);
	});
});

describe('Custom Query', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 120, aiNaming: 'live' });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	const QUERY = `query Recent($limit: Int!, $status: String!) {
		face_image_tasks(limit: $limit, where: {status: {_eq: $status}}, order_by: [{task_id: asc}]) { task_id status }
	}`;

	it('runs a query with variables and outputs its data as one item', async () => {
		const result = await runAi(sandbox, {
			resource: 'customQuery',
			operation: 'execute',
			query: QUERY,
			variables: '{"limit": 3, "status": "succeeded"}',
		});
		expect(result.error).toBeUndefined();
		const expected = (
			sandbox.data.ai.records('face_image_tasks', ['task_id', 'status']) as IDataObject[]
		)
			.filter((row) => row.status === 'succeeded')
			.sort((a, b) => String(a.task_id).localeCompare(String(b.task_id)))
			.slice(0, 3);
		expect(jsonOf(result)).toEqual([{ face_image_tasks: expected }]);
	});

	it('splits the first root field into items when asked', async () => {
		const result = await runAi(sandbox, {
			resource: 'customQuery',
			operation: 'execute',
			query: QUERY,
			variables: '{"limit": 4, "status": "succeeded"}',
			options: { splitIntoItems: true },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(4);
		expect(jsonOf(result)[0]).toEqual({ task_id: expect.any(String), status: 'succeeded' });
	});

	it.each([
		[
			'{ face_image_tasks(limit: 1) { task_id ',
			'{}',
			'Parameter "Query": is not valid GraphQL: Syntax Error',
		],
		[
			'mutation { delete_face_tasks { affected_rows } }',
			'{}',
			'Parameter "Query": only queries are allowed, not a mutation',
		],
		[
			'subscription { face_tasks { task_id } }',
			'{}',
			'Parameter "Query": only queries are allowed, not a subscription',
		],
		[
			'query A { face_tasks { task_id } } query B { ner_tasks { task_id } }',
			'{}',
			'Parameter "Query": holds several operations',
		],
		[QUERY, '{"limit": 3,', 'Parameter "Variables": is not valid JSON'],
	])('refuses %s before any request', async (query, variables, message) => {
		const result = await runAi(sandbox, {
			resource: 'customQuery',
			operation: 'execute',
			query,
			variables,
		});
		expect(result.error?.message).toContain(message);
		expect(graphqlRequests(sandbox)).toBe(0);
	});

	it.each([
		[
			'{ face_tasks(limit: 1) { no_such_field } }',
			'{}',
			'Parameter "Query": is not valid for this API: Cannot query field "no_such_field"',
		],
		[
			'{ image_tasks(limit: 1) { task_id } }',
			'{}',
			'Parameter "Query": is not valid for this API: Cannot query field "image_tasks"',
		],
		[
			QUERY,
			'{"limit": 2147483648, "status": "succeeded"}',
			'Parameter "Variables": $limit is 2147483648, which is not a whole number from -2147483648 to 2147483647',
		],
		[
			QUERY,
			'{"status": "succeeded"}',
			'Parameter "Variables": is not valid for this API: Variable "$limit" of required type "Int!" was not provided.',
		],
	])('validates %s against the live schema before sending', async (query, variables, message) => {
		const result = await runAi(sandbox, {
			resource: 'customQuery',
			operation: 'execute',
			query,
			variables,
		});
		expect(result.error?.message).toContain(message);
		expect(graphqlRequests(sandbox)).toBe(1);
	});
});

describe('Authentication and secrets', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 40 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('refreshes a rejected token once and carries on', async () => {
		const credentials = aiCredentials(sandbox);
		const first = await runAi(
			sandbox,
			{ resource: 'faceTask', operation: 'count' },
			{ credentials },
		);
		expect(first.error).toBeUndefined();
		sandbox.revokeTokens();
		const second = await runAi(
			sandbox,
			{ resource: 'faceTask', operation: 'getAll', limit: 2 },
			{ credentials },
		);
		expect(second.error).toBeUndefined();
		expect(jsonOf(second)).toHaveLength(2);
		expect(credentials.preAuthenticationCalls.map((call) => call.expired)).toEqual([false, true]);
		expect(sandbox.counters.get().ai.tokensIssued).toBe(2);
	});

	it('never shows the password or token in errors or output', async () => {
		const credentials = aiCredentials(sandbox);
		const success = await runAi(
			sandbox,
			{ resource: 'refsetPerson', operation: 'getAll', limit: 1 },
			{ credentials },
		);
		const token = String(credentials.store.get('archiveAiMetadataApi')?.accessToken);
		expect(token.length).toBeGreaterThan(10);
		sandbox.faults.set('ai', { status5xx: { every: 1, code: 502 } });
		const failure = await runAi(
			sandbox,
			{ resource: 'refsetPerson', operation: 'getAll', limit: 1, options: { maxRetries: 0 } },
			{ credentials, settings: { continueOnFail: true } },
		);
		const text = JSON.stringify([success.outputs, failure.outputs, failure.error ?? null]);
		expect(failure.outputs[0][0].json.error).toBe('AI Metadata API: the server failed (HTTP 502)');
		expect(text).not.toContain(sandbox.ai.password);
		expect(text).not.toContain(token);
	});
});
