import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { forward, startTestOrigin } from '../../../dev/harness/testOrigin';
import type { TestOrigin } from '../../../dev/harness/testOrigin';
import { aiCredentials, jsonOf, resetState, runAi, withSandbox } from './helpers';

/**
 * The node's own queries are built with the `graphql` library and the user's values travel as GraphQL variables,
 * never in the query text. The node talks to `front`, a loopback origin that passes everything on to the emulator and
 * records each request as sent, so the test reads the very `query` and `variables` that went over the wire.
 */

/** A value that would break out of a string literal if it were pasted into the query text. */
const INJECTION = 'x") { injected } #';
const PID_INJECTION = 'p") { injected } #';

interface SentRequest {
	query: string;
	variables: unknown;
}

let sandbox: Sandbox;
let front: TestOrigin;

beforeAll(async () => {
	sandbox = await withSandbox({ rows: 40 });
	sandbox.data.ai.insert('face_tasks', { values: { title: `Koers ${INJECTION} live` } });
	front = await startTestOrigin((request, res) => forward(request, res, sandbox.ai.baseUrl));
});
afterAll(async () => Promise.all([sandbox.close(), front.close()]));
beforeEach(async () => {
	await resetState(sandbox);
	front.requests.length = 0;
});

const credentials = () =>
	aiCredentials(sandbox, {
		graphqlUrl: `${front.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`,
	});

/** The GraphQL requests the node sent, as the front received them. */
function sentRequests(): SentRequest[] {
	return front.requests
		.filter((request) => request.method === 'POST')
		.map((request) => JSON.parse(request.body.toString('utf8')) as SentRequest);
}

/** Every string inside a variables object. */
function stringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value !== 'object' || value === null) return [];
	return Object.values(value).flatMap(stringsOf);
}

function expectOnlyInVariables(values: string[]): void {
	const sent = sentRequests();
	expect(sent.length).toBeGreaterThan(0);
	for (const request of sent) {
		for (const value of values) expect(request.query).not.toContain(value);
		expect(request.query).not.toContain('injected');
	}
	const variableStrings = sent.flatMap((request) => stringsOf(request.variables));
	for (const value of values)
		expect(variableStrings.some((text) => text.includes(value))).toBe(true);
}

describe('AI Metadata sends user values as GraphQL variables, never in the query text', () => {
	it('sends filter values as variables, never in the query text', async () => {
		const result = await runAi(
			sandbox,
			{ resource: 'faceTask', operation: 'getAll', returnAll: true, filters: { title: INJECTION } },
			{ credentials: credentials() },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((row) => row.title)).toEqual([`Koers ${INJECTION} live`]);
		expectOnlyInVariables([INJECTION]);
	});

	it('sends PIDs as variables, never in the query text', async () => {
		const pid = String(
			(sandbox.data.ai.records('face_tasks', ['pid']) as IDataObject[]).find(
				(row) => typeof row.pid === 'string' && row.pid !== '',
			)?.pid,
		);
		const result = await runAi(
			sandbox,
			{
				resource: 'faceTask',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				options: { whenNotFound: 'notFoundItem' },
			},
			{ input: [{ pid }, { pid: PID_INJECTION }], credentials: credentials() },
		);
		expect(result.error).toBeUndefined();
		const rows = jsonOf(result);
		expect(rows.some((row) => row.pid === pid && row.found === true)).toBe(true);
		expect(rows).toContainEqual({ pid: PID_INJECTION, found: false });
		expectOnlyInVariables([pid, PID_INJECTION]);
	});
});
