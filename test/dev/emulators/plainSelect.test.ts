import { execute, parse, validate, type ExecutionResult } from 'graphql';

import { AiDataset, type RawStorage } from '../../../dev/emulators/ai/dataset';
import type { AiNaming } from '../../../dev/emulators/ai/model';
import { answerPlainSelect } from '../../../dev/emulators/ai/plainSelect';
import { buildAiSchema } from '../../../dev/emulators/ai/schema';

/**
 * The emulator answers plain column selections without graphql-js's execution. Its answer must be the very text
 * graphql-js gives (the server sends JSON.stringify of either), and every other document must go the full way.
 */

function fixture(naming: AiNaming, rawStorage: RawStorage) {
	const dataset = new AiDataset({ rows: 300, seed: 11, naming, rawStorage });
	const schema = buildAiSchema(dataset, { aggregates: true });
	const presign = (path: string) => `http://files.test/${path}`;
	const run = (query: string, variables?: unknown, operationName?: string) => {
		const document = parse(query);
		expect(validate(schema, document)).toEqual([]);
		const plain = answerPlainSelect(
			schema,
			dataset,
			document,
			variables as Record<string, unknown> | undefined,
			operationName,
		);
		const full = execute({
			schema,
			document,
			contextValue: { dataset, presign },
			variableValues: variables as Record<string, unknown>,
			operationName,
		}) as ExecutionResult;
		return { plain, full };
	};
	return { dataset, run };
}

const allColumns = (dataset: AiDataset, view: string) =>
	dataset
		.view(view)
		.def.columns.map((column) => column.name)
		.join(' ');

describe('plain selects: the same answer as graphql-js', () => {
	for (const [naming, rawStorage] of [
		['seed', 'inline'],
		['live', 'paths'],
	] as const) {
		const { dataset, run } = fixture(naming, rawStorage);

		it(`every column of every view (${naming} names, ${rawStorage} raw columns)`, () => {
			for (const view of dataset.viewNames()) {
				const { plain, full } = run(
					`{ ${view}(order_by: [{ ${dataset.view(view).def.columns[0].name}: desc_nulls_last }]) { ${allColumns(dataset, view)} } }`,
				);
				expect(full.errors).toBeUndefined();
				expect(plain).toBeDefined();
				expect(JSON.stringify(plain)).toBe(JSON.stringify({ data: full.data }));
			}
		});
	}

	const { dataset, run } = fixture('seed', 'inline');

	it('pages with variables, including past the end', () => {
		const query = `query Page($limit: Int!, $offset: Int!) { face_tasks(limit: $limit, offset: $offset, order_by: [{ task_id: asc }]) { ${allColumns(dataset, 'face_tasks')} } }`;
		for (const offset of [0, 290, 300, 1000]) {
			const { plain, full } = run(query, { limit: 20, offset });
			expect(JSON.stringify(plain)).toBe(JSON.stringify({ data: full.data }));
		}
	});

	it('filters, distinct_on, aliases, literals, several views and a chosen operation', () => {
		const cp = dataset.records('face_tasks')[0].cp;
		const query = `
			query Other { refset_persons(limit: 2) { id } }
			query Mixed($cp: String!, $statuses: [String!]) {
				mine: face_tasks(where: { _and: [{ cp: { _eq: $cp } }, { status: { _in: $statuses } }] }, order_by: { processed_time: desc }) { id: task_id when: processed_time cluster_uuids }
				face_matches(distinct_on: [cluster_uuid], order_by: [{ cluster_uuid: asc }, { match_score: desc }], limit: 7) { cluster_uuid match_score time_intervals }
				speech_tasks(where: { error: { _is_null: false } }, limit: 3) { task_id error transcript_txt statistics }
			}`;
		const { plain, full } = run(query, { cp, statuses: ['succeeded', 'failed'] }, 'Mixed');
		expect(full.errors).toBeUndefined();
		expect((full.data?.mine as unknown[]).length).toBeGreaterThan(0);
		expect(JSON.stringify(plain)).toBe(JSON.stringify({ data: full.data }));
	});

	it('leaves everything else to the full execution', () => {
		const notPlain: Array<[string, string, unknown?, string?]> = [
			['__typename', '{ face_tasks(limit: 1) { __typename task_id } }'],
			['a fragment', '{ face_tasks(limit: 1) { ...F } } fragment F on face_tasks { task_id }'],
			['an inline fragment', '{ face_tasks(limit: 1) { ... on face_tasks { task_id } } }'],
			['a directive', '{ face_tasks(limit: 1) { task_id @include(if: true) } }'],
			['an aggregate', '{ face_tasks_aggregate { aggregate { count } } }'],
			['presignS3', '{ presignS3(urls_sets: { transcript_srt: "a/b.srt" }) { presigned_srt } }'],
			['a repeated response key', '{ face_tasks(limit: 1) { task_id task_id } }'],
			[
				'two root fields with one key',
				'{ a: face_tasks(limit: 1) { task_id } a: face_tasks(limit: 1) { task_id } }',
			],
			[
				'two operations and no name',
				'query A { face_tasks(limit: 1) { task_id } } query B { ner_tasks(limit: 1) { task_id } }',
			],
		];
		for (const [what, query] of notPlain) {
			const document = parse(query);
			expect([
				what,
				answerPlainSelect(
					buildAiSchema(dataset, { aggregates: true }),
					dataset,
					document,
					undefined,
					undefined,
				),
			]).toEqual([what, undefined]);
		}
	});

	it('leaves errors to the full execution, which reports them', () => {
		const page = 'query($limit: Int) { face_tasks(limit: $limit) { task_id } }';
		for (const [what, variables] of [
			['a string for an Int', { limit: 'ten' }],
			['a negative limit (a Hasura error)', { limit: -1 }],
			['variables that are not an object', ['not', 'an', 'object']],
		] as const) {
			const { plain, full } = what.startsWith('variables')
				? {
						plain: answerPlainSelect(
							buildAiSchema(dataset, { aggregates: true }),
							dataset,
							parse(page),
							variables as unknown as Record<string, unknown>,
							undefined,
						),
						full: undefined,
					}
				: run(page, variables);
			expect([what, plain]).toEqual([what, undefined]);
			if (full) expect(full.errors?.length).toBeGreaterThan(0);
		}
	});
});
