import { parse, print } from 'graphql';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { forward, startTestOrigin } from '../../../dev/harness/testOrigin';
import type { TestOrigin } from '../../../dev/harness/testOrigin';
import { aiCredentials, jsonOf, resetState, runAi, withSandbox } from './helpers';

let sandbox: Sandbox;
/** Passes everything on to the emulator and records what the node really sent. */
let recorder: TestOrigin;

beforeAll(async () => {
	sandbox = await withSandbox({ rows: 30 });
	recorder = await startTestOrigin((request, res) => forward(request, res, sandbox.ai.baseUrl));
});
afterAll(async () => Promise.all([sandbox.close(), recorder.close()]));
beforeEach(async () => {
	await resetState(sandbox);
	recorder.requests.length = 0;
});

const DOCUMENT = `
query Faces { face_tasks(limit: 1, order_by: [{task_id: asc}]) { ...TaskFields } }
query Speech($limit: Int!) { speech_tasks(limit: $limit, order_by: [{task_id: asc}]) { ...SpeechFields } }
fragment SpeechFields on speech_tasks { ...SpeechIds status }
fragment SpeechIds on speech_tasks { task_id }
fragment TaskFields on face_tasks { task_id pid }
`;

/** The query documents the node sent, other than its own introspection. */
function sentQueries(): string[] {
	return recorder.requests
		.map(
			(request) =>
				JSON.parse(request.body.toString('utf8')) as { query: string; operationName?: string },
		)
		.filter((body) => body.operationName !== 'IntrospectionQuery')
		.map((body) => body.query);
}

describe('Custom Query with several operations', () => {
	it('sends only the selected operation and the fragments it uses', async () => {
		const result = await runAi(
			sandbox,
			{
				resource: 'customQuery',
				operation: 'execute',
				query: DOCUMENT,
				variables: '{"limit": 2}',
				options: { operationName: 'Speech' },
			},
			{
				credentials: aiCredentials(sandbox, {
					graphqlUrl: `${recorder.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`,
				}),
			},
		);
		expect(result.error).toBeUndefined();
		const expected = (
			sandbox.data.ai.records('speech_tasks', ['task_id', 'status']) as IDataObject[]
		)
			.sort((a, b) => String(a.task_id).localeCompare(String(b.task_id)))
			.slice(0, 2);
		expect(jsonOf(result)).toEqual([{ speech_tasks: expected }]);
		const [sent] = sentQueries();
		const names = parse(sent).definitions.map((definition) =>
			'name' in definition ? definition.name?.value : undefined,
		);
		expect(names).toEqual(['Speech', 'SpeechFields', 'SpeechIds']);
		expect(sent).not.toContain('face_tasks');
		expect(sent).toBe(print(parse(sent)));
	});
});
