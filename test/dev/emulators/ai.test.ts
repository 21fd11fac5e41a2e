import { startSandbox, type Sandbox } from '../../../dev/emulators/index';
import { aiData, aiToken, postGraphql } from './testHelpers';

type Row = Record<string, unknown>;

describe('AI metadata emulator (Hasura semantics)', () => {
	let sandbox: Sandbox;
	let token: string;
	let faceTasks: Row[];

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 400, seed: 7 });
		token = await aiToken(sandbox);
		faceTasks = sandbox.data.ai.records('face_tasks');
	});
	afterAll(() => sandbox.close());

	const ids = (rows: Row[]) => rows.map((row) => row.task_id);
	const query = <T = Record<string, Row[]>>(text: string, variables?: Record<string, unknown>) =>
		aiData<T>(sandbox, token, text, variables);

	it('serves every seed view with realistic data', async () => {
		const data = await query(`{
			face_tasks(limit: 1) { task_id cp pid status processed_time cluster_uuids n_faces_per_frame perc_frames_with_faces }
			image_tasks(limit: 1) { task_id } face_matches(limit: 1) { cluster_uuid match_score time_intervals refset_person_id }
			image_matches(limit: 1) { cp } refset_persons(limit: 1) { id label public_links created_at }
			speech_tasks(limit: 1) { task_id transcript_srt statistics } ner_tasks(limit: 1) { task_id extractor_json processed_json }
		}`);
		const task = data.face_tasks[0];
		expect(task).toEqual(
			sandbox.data.ai.record(
				'face_tasks',
				sandbox.data.ai.rows('face_tasks')[0],
				Object.keys(task),
			),
		);
		expect(task.cp).toMatch(/^OR-[a-z0-9]{7}$/);
		expect(task.pid).toMatch(/^[a-z]{10}$/);
		expect(task.processed_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/);
		const match = data.face_matches[0];
		const person = sandbox.data.ai
			.records('refset_persons')
			.find((row) => row.id === match.refset_person_id);
		expect(person).toBeDefined();
		expect(Array.isArray(match.time_intervals)).toBe(true);
		expect(new Set(faceTasks.map((row) => row.status))).toEqual(new Set(['succeeded', 'failed']));
		expect(
			faceTasks
				.filter((row) => row.status === 'failed')
				.every((row) => typeof row.error === 'string'),
		).toBe(true);
		const pids = faceTasks.map((row) => row.pid);
		expect(new Set(pids).size).toBeLessThan(pids.length);
	});

	it('filters with comparison operators, _in/_nin, _is_null and the text operators', async () => {
		const cp = faceTasks[0].cp as string;
		const after = faceTasks[10].processed_time as string;
		const data = await query(
			`query($cp: String!, $after: timestamptz!) {
				eq: face_tasks(where: { cp: { _eq: $cp } }) { task_id }
				neq: face_tasks(where: { cp: { _neq: $cp } }) { task_id }
				gt: face_tasks(where: { processed_time: { _gt: $after } }) { task_id }
				lte: face_tasks(where: { n_faces: { _lte: 5 } }) { task_id }
				nin: face_tasks(where: { status: { _nin: ["succeeded"] } }) { task_id }
				isnull: face_tasks(where: { main_local_id: { _is_null: true } }) { task_id }
				like: face_tasks(where: { title: { _like: "Journaal%" } }) { task_id }
				ilike: face_tasks(where: { title: { _ilike: "%AFLEVERING%" } }) { task_id }
				nilike: face_tasks(where: { title: { _nilike: "%aflevering%" } }) { task_id }
				regex: face_tasks(where: { title: { _regex: "^[KP]" } }) { task_id }
				iregex: face_tasks(where: { title: { _iregex: "^panorama 19[0-9]{2}$" } }) { task_id }
				similar: face_tasks(where: { title: { _similar: "(Koers|Debat)%" } }) { task_id }
			}`,
			{ cp, after },
		);
		const expectIds = (key: string, predicate: (row: Row) => boolean) => {
			const expected = ids(faceTasks.filter(predicate));
			expect(expected.length).toBeGreaterThan(0);
			expect(ids(data[key])).toEqual(expected);
		};
		expectIds('eq', (row) => row.cp === cp);
		expectIds('neq', (row) => row.cp !== cp);
		// Hasura's rendering (`...:SS[.ffffff]+00:00`, all UTC) sorts lexicographically like the instants themselves.
		expectIds('gt', (row) => (row.processed_time as string) > after);
		expectIds('lte', (row) => row.n_faces !== null && (row.n_faces as number) <= 5);
		expectIds('nin', (row) => row.status !== 'succeeded');
		expectIds('isnull', (row) => row.main_local_id === null);
		expectIds('like', (row) => String(row.title).startsWith('Journaal'));
		expectIds('ilike', (row) => /aflevering/i.test(String(row.title)));
		expectIds('nilike', (row) => !/aflevering/i.test(String(row.title)));
		expectIds('regex', (row) => /^[KP]/.test(String(row.title)));
		expectIds('iregex', (row) => /^panorama 19\d\d$/i.test(String(row.title)));
		expectIds('similar', (row) => /^(Koers|Debat)/.test(String(row.title)));
	});

	it('combines _and, _or and _not', async () => {
		const data = await query(`{
			face_tasks(where: { _or: [{ n_persons: { _gte: 10 } }, { _and: [{ status: { _eq: "failed" } }, { _not: { external_id: { _is_null: true } } }] }] }) { task_id }
		}`);
		const expected = faceTasks.filter(
			(row) =>
				(row.n_persons !== null && (row.n_persons as number) >= 10) ||
				(row.status === 'failed' && row.external_id !== null),
		);
		expect(ids(data.face_tasks)).toEqual(ids(expected));
	});

	it('reads an empty where as no filter, while _not of an empty filter matches nothing', async () => {
		const data = await query(
			`query($where: face_tasks_bool_exp) {
				empty: face_tasks(where: $where, order_by: { task_id: asc }, limit: 30, offset: 370) { task_id }
				none: face_tasks(where: { _not: {} }) { task_id }
			}`,
			{ where: {} },
		);
		const sorted = [...faceTasks].sort((a, b) => (String(a.task_id) < String(b.task_id) ? -1 : 1));
		expect(ids(data.empty)).toEqual(ids(sorted.slice(370, 400)));
		expect(data.none).toEqual([]);
	});

	it('orders (nulls placement included) and pages with limit/offset', async () => {
		const data = await query(`{
			page1: face_tasks(order_by: [{ n_faces: desc }, { task_id: asc }], limit: 50, offset: 0) { task_id n_faces }
			page2: face_tasks(order_by: [{ n_faces: desc }, { task_id: asc }], limit: 50, offset: 50) { task_id n_faces }
			last: face_tasks(order_by: { n_faces: asc_nulls_first }, limit: 1) { n_faces }
		}`);
		const sorted = [...faceTasks].sort((a, b) => {
			if (a.n_faces === b.n_faces) return String(a.task_id) < String(b.task_id) ? -1 : 1;
			if (a.n_faces === null) return -1; // desc => nulls first
			if (b.n_faces === null) return 1;
			return (b.n_faces as number) - (a.n_faces as number);
		});
		expect(ids(data.page1)).toEqual(ids(sorted.slice(0, 50)));
		expect(ids(data.page2)).toEqual(ids(sorted.slice(50, 100)));
		expect(data.last[0].n_faces).toBeNull();
	});

	it('returns the same unordered sequence on every call (deterministic default order)', async () => {
		const first = await query('{ face_tasks(limit: 20, offset: 30) { task_id } }');
		const second = await query('{ face_tasks(limit: 20, offset: 30) { task_id } }');
		expect(ids(first.face_tasks)).toEqual(ids(second.face_tasks));
		expect(ids(first.face_tasks)).toEqual(ids(faceTasks.slice(30, 50)));
	});

	it('supports distinct_on (must lead order_by, as in Hasura)', async () => {
		const data = await query(
			'{ face_tasks(distinct_on: [cp], order_by: [{ cp: asc }, { processed_time: desc }]) { cp processed_time } }',
		);
		const cps = [...new Set(faceTasks.map((row) => row.cp as string))].sort();
		expect(data.face_tasks.map((row) => row.cp)).toEqual(cps);
		for (const row of data.face_tasks) {
			const latest = faceTasks
				.filter((task) => task.cp === row.cp)
				.map((task) => task.processed_time as string)
				.sort()
				.at(-1);
			expect(row.processed_time).toBe(latest);
		}
		const wrong = await postGraphql(
			sandbox.ai.graphqlUrl,
			token,
			'{ face_tasks(distinct_on: [cp], order_by: { processed_time: asc }) { cp } }',
		);
		expect(wrong.status).toBe(200);
		expect(wrong.body.data).toBeUndefined();
		expect(wrong.body.errors?.[0].extensions?.code).toBe('validation-failed');
	});

	it('aggregates count, max and min over the filtered rows', async () => {
		const data = await query<Record<string, { aggregate: Record<string, unknown>; nodes: Row[] }>>(
			`{
			face_tasks_aggregate(where: { status: { _eq: "succeeded" } }) { aggregate { count max { n_faces processed_time } min { n_faces } } nodes { task_id } }
			all: face_tasks_aggregate { aggregate { count distinctCps: count(columns: [cp], distinct: true) } }
		}`,
		);
		const succeeded = faceTasks.filter((row) => row.status === 'succeeded');
		const aggregate = data.face_tasks_aggregate.aggregate as { count: number; max: Row; min: Row };
		expect(aggregate.count).toBe(succeeded.length);
		expect(aggregate.max.n_faces).toBe(Math.max(...succeeded.map((row) => row.n_faces as number)));
		expect(aggregate.min.n_faces).toBe(Math.min(...succeeded.map((row) => row.n_faces as number)));
		expect(aggregate.max.processed_time).toBe(
			succeeded
				.map((row) => row.processed_time as string)
				.sort()
				.at(-1),
		);
		expect(data.face_tasks_aggregate.nodes).toHaveLength(succeeded.length);
		expect(data.all.aggregate).toEqual({
			count: 400,
			distinctCps: new Set(faceTasks.map((row) => row.cp)).size,
		});
	});

	it('answers errors like Hasura: HTTP 200, errors with path and code, no data', async () => {
		const cases: Array<[string, string]> = [
			['{ face_tasks { no_such_column } }', 'validation-failed'],
			['{ face_tasks(where: { cp: { _eq: null } }) { cp } }', 'validation-failed'],
			['{ face_tasks(limit: -1) { cp } }', 'validation-failed'],
			['{ face_tasks_by_pk { cp } }', 'validation-failed'],
			['{ face_tasks(', 'parse-failed'],
		];
		for (const [text, code] of cases) {
			const answer = await postGraphql(sandbox.ai.graphqlUrl, token, text);
			expect(answer.status).toBe(200);
			expect(answer.body.data).toBeUndefined();
			expect(answer.body.errors?.[0].extensions).toEqual(
				expect.objectContaining({ code, path: expect.any(String) }),
			);
		}
	});

	it('accepts the token as jwtauth query parameter and refuses requests without a valid token', async () => {
		const body = JSON.stringify({ query: '{ face_tasks(limit: 1) { task_id } }' });
		const withParam = await fetch(`${sandbox.ai.graphqlUrl}?jwtauth=${encodeURIComponent(token)}`, {
			method: 'POST',
			body,
			headers: { 'content-type': 'application/json' },
		});
		expect(withParam.status).toBe(200);
		expect(
			((await withParam.json()) as { data: Record<string, Row[]> }).data.face_tasks,
		).toHaveLength(1);
		expect(
			(await postGraphql(sandbox.ai.graphqlUrl, undefined, '{ face_tasks { cp } }')).status,
		).toBe(401);
		expect(
			(await postGraphql(sandbox.ai.graphqlUrl, 'made-up-token', '{ face_tasks { cp } }')).status,
		).toBe(401);
	});

	it('supports introspection', async () => {
		const data = await aiData<{ __schema: { queryType: { fields: Array<{ name: string }> } } }>(
			sandbox,
			token,
			'{ __schema { queryType { fields { name } } } }',
		);
		const names = data.__schema.queryType.fields.map((field) => field.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'face_tasks',
				'image_tasks',
				'image_matches',
				'speech_tasks_aggregate',
				'presignS3',
			]),
		);
		expect(names.some((name) => name.endsWith('_by_pk'))).toBe(false);
	});

	it('touch() moves rows past every other time so "new since" queries find exactly them', async () => {
		const before = await query(
			'{ face_tasks(order_by: { processed_time: desc }, limit: 1) { processed_time } }',
		);
		const touched = sandbox.data.ai.touch('face_tasks', 3);
		const data = await query(
			'query($t: timestamptz!) { face_tasks(where: { processed_time: { _gt: $t } }, order_by: { processed_time: asc }) { task_id processed_time } }',
			{
				t: before.face_tasks[0].processed_time,
			},
		);
		expect(ids(data.face_tasks)).toEqual(ids(touched));
		expect(data.face_tasks.map((row) => row.processed_time)).toEqual(
			touched.map((row) => row.processed_time),
		);
	});

	it('presignS3 returns signed URLs that download the content of inline columns', async () => {
		const speech = sandbox.data.ai
			.records('speech_tasks')
			.find((row) => row.status === 'succeeded')!;
		const data = await query<{ presignS3: Array<Record<string, string | null>> }>(
			'query($srt: String, $json: String) { presignS3(urls_sets: { transcript_srt: $srt, transcript_json: $json }) { presigned_srt presigned_json presigned_vtt } }',
			{ srt: `${speech.task_id}/transcript.srt`, json: `${speech.task_id}/transcript.json` },
		);
		const urls = data.presignS3[0];
		expect(urls.presigned_vtt).toBeNull();
		const srt = await fetch(urls.presigned_srt!);
		expect(srt.status).toBe(200);
		expect(srt.headers.get('content-type')).toBe('application/x-subrip');
		expect(await srt.text()).toBe(speech.transcript_srt);
		const json = await fetch(urls.presigned_json!);
		expect(json.headers.get('content-type')).toBe('application/json');
		expect(await json.text()).toBe(speech.transcript_json);
		const forged = await fetch(urls.presigned_srt!.replace(/signature=[0-9a-f]/, 'signature=x'));
		expect(forged.status).toBe(403);
	});
});

describe('AI emulator variants', () => {
	it('live naming: face_image_* views and the vendor column nerengine_json', async () => {
		const sandbox = await startSandbox({ rows: 50, aiNaming: 'live' });
		try {
			const token = await aiToken(sandbox);
			const data = await aiData(
				sandbox,
				token,
				'{ face_image_tasks(limit: 1) { task_id } face_image_matches(limit: 1) { cp } ner_tasks(limit: 1) { nerengine_json } }',
			);
			expect(Object.keys(data)).toEqual(['face_image_tasks', 'face_image_matches', 'ner_tasks']);
			const old = await postGraphql(sandbox.ai.graphqlUrl, token, '{ image_tasks { task_id } }');
			expect(old.body.errors?.[0].extensions?.code).toBe('validation-failed');
		} finally {
			await sandbox.close();
		}
	});

	it('without aggregates the *_aggregate fields do not exist', async () => {
		const sandbox = await startSandbox({ rows: 20, aiAggregates: false });
		try {
			const token = await aiToken(sandbox);
			const answer = await postGraphql(
				sandbox.ai.graphqlUrl,
				token,
				'{ face_tasks_aggregate { aggregate { count } } }',
			);
			expect(answer.body.errors?.[0].extensions?.code).toBe('validation-failed');
		} finally {
			await sandbox.close();
		}
	});

	it("'paths' storage puts object paths in raw columns, content behind presignS3", async () => {
		const sandbox = await startSandbox({ rows: 30, aiRawStorage: 'paths' });
		try {
			const token = await aiToken(sandbox);
			const data = await aiData<{ ner_tasks: Row[] }>(
				sandbox,
				token,
				'{ ner_tasks(where: { status: { _eq: "succeeded" } }, limit: 1) { task_id processed_json extractor_json } }',
			);
			const task = data.ner_tasks[0];
			expect(task.processed_json).toBe(`${task.task_id}/processed.json`);
			expect(task.extractor_json).toBe(`${task.task_id}/extractor.json`);
			const urls = await aiData<{ presignS3: Array<Record<string, string>> }>(
				sandbox,
				token,
				'query($p: String, $e: String) { presignS3(urls_sets: { processed_json: $p, extractor_json: $e }) { presigned_processed_json presigned_extractor_json } }',
				{ p: task.processed_json, e: task.extractor_json },
			);
			const content = await (await fetch(urls.presignS3[0].presigned_extractor_json)).text();
			expect(JSON.parse(content)).toHaveProperty('document.entities');
			expect(content).toBe(sandbox.data.ai.fileContent(task.extractor_json as string)?.content);
		} finally {
			await sandbox.close();
		}
	});

	it('same seed and rows give identical data; another seed differs', async () => {
		const { AiDataset } = await import('../../../dev/emulators/ai/dataset');
		const make = (seed: number) =>
			new AiDataset({ rows: 60, seed, naming: 'seed', rawStorage: 'inline' });
		const views = ['face_tasks', 'face_matches', 'speech_tasks', 'ner_tasks', 'refset_persons'];
		const dump = (seed: number) => JSON.stringify(views.map((view) => make(seed).records(view)));
		expect(dump(5)).toBe(dump(5));
		expect(dump(5)).not.toBe(dump(6));
	});
});

describe('AI metadata emulator: what the node tests need beyond the seed', () => {
	let sandbox: Sandbox;
	let token: string;
	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 50, seed: 3 });
		token = await aiToken(sandbox);
	});
	afterAll(() => sandbox.close());

	it('insert() adds new rows at any time, behind the newest ones too, with chosen plain values', async () => {
		const existing = new Set(
			sandbox.data.ai.records('face_tasks', ['task_id']).map((row) => row.task_id),
		);
		const added = sandbox.data.ai.insert('face_tasks', {
			count: 2,
			at: '2024-01-02T03:04:05.5Z',
			values: { title: '100%_echt' },
		});
		expect(added).toHaveLength(2);
		expect(added.every((row) => !existing.has(row.task_id))).toBe(true);
		const data = await aiData<{ face_tasks: Row[] }>(
			sandbox,
			token,
			'{ face_tasks(where: { processed_time: { _eq: "2024-01-02T03:04:05.5Z" } }, order_by: { task_id: asc }) { task_id title processed_time } }',
		);
		expect(data.face_tasks).toEqual(
			added
				.map((row) => ({
					task_id: row.task_id,
					title: '100%_echt',
					processed_time: '2024-01-02T03:04:05.5+00:00',
				}))
				.sort((a, b) => String(a.task_id).localeCompare(String(b.task_id))),
		);
		expect(() => sandbox.data.ai.insert('face_tasks', { values: { cluster_uuid: [] } })).toThrow(
			/face_tasks has no column "cluster_uuid"/,
		);
	});

	it('the literal list format types list columns as Postgres arrays and serves them as literals', async () => {
		const literal = await startSandbox({ rows: 30, seed: 3, aiListFormat: 'literal' });
		try {
			const literalToken = await aiToken(literal);
			const data = await aiData<{
				face_tasks: Row[];
				face_matches: Row[];
				__type: { fields: Array<{ name: string; type: { name: string } }> };
			}>(
				literal,
				literalToken,
				'{ face_tasks(where: { status: { _eq: "succeeded" } }, limit: 1) { task_id cluster_uuids n_faces_per_frame } face_matches(limit: 1) { time_intervals } __type(name: "face_tasks") { fields { name type { name } } } }',
			);
			const json = sandbox.data.ai
				.records('face_tasks')
				.find((row) => row.task_id === data.face_tasks[0].task_id)!;
			expect(data.face_tasks[0].cluster_uuids).toBe(
				`{${(json.cluster_uuids as string[]).join(',')}}`,
			);
			expect(data.face_tasks[0].n_faces_per_frame).toBe(
				`{${(json.n_faces_per_frame as number[]).join(',')}}`,
			);
			expect(data.face_matches[0].time_intervals).toMatch(/^\{(\{[\d.]+,[\d.]+\},?)+\}$/);
			const types = Object.fromEntries(
				data.__type.fields.map((field) => [field.name, field.type.name]),
			);
			expect(types).toMatchObject({
				cluster_uuids: '_uuid',
				n_faces_per_frame: '_int4',
				task_id: 'uuid',
			});
		} finally {
			await literal.close();
		}
	});

	it('without introspection, __schema and __type are unknown fields; everything else works', async () => {
		const closed = await startSandbox({ rows: 10, seed: 3, aiIntrospection: false });
		try {
			const closedToken = await aiToken(closed);
			for (const query of [
				'{ __schema { queryType { name } } }',
				'query Q { face_tasks(limit: 1) { task_id } __type(name: "face_tasks") { name } }',
			]) {
				const answer = await postGraphql(closed.ai.graphqlUrl, closedToken, query);
				expect(answer.status).toBe(200);
				expect(answer.body.data).toBeUndefined();
				expect(answer.body.errors?.[0]).toEqual({
					message: expect.stringMatching(
						/^field '__(schema|type)' not found in type: 'query_root'$/,
					),
					extensions: {
						path: expect.stringMatching(/^\$\.selectionSet\.__(schema|type)$/),
						code: 'validation-failed',
					},
				});
			}
			const data = await aiData<{ face_tasks: Row[] }>(
				closed,
				closedToken,
				'{ face_tasks(limit: 2) { task_id __typename } }',
			);
			expect(data.face_tasks).toHaveLength(2);
		} finally {
			await closed.close();
		}
	});
});
