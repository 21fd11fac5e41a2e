import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { graphqlRequests, jsonOf, resetState, runAi, withSandbox } from './helpers';

const VIEWS: Array<[string, string, string]> = [
	['faceTask', 'face_tasks', 'face_tasks'],
	['imageTask', 'image_tasks', 'face_image_tasks'],
	['faceMatch', 'face_matches', 'face_matches'],
	['imageMatch', 'image_matches', 'face_image_matches'],
	['refsetPerson', 'refset_persons', 'refset_persons'],
	['speechTask', 'speech_tasks', 'speech_tasks'],
	['nerTask', 'ner_tasks', 'ner_tasks'],
];

describe('Count (live naming)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 500, aiNaming: 'live' });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it.each(VIEWS)('%s: counts every row of the live view', async (resource, _seedView, liveView) => {
		const result = await runAi(sandbox, { resource, operation: 'count' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ view: liveView, count: 500 }]);
	});

	it('counts with friendly and advanced filters, one item per input item', async () => {
		const records = sandbox.data.ai.records('speech_tasks') as IDataObject[];
		const partners = [...new Set(records.map((row) => String(row.cp)))].slice(0, 2);
		const result = await runAi(
			sandbox,
			{
				resource: 'speechTask',
				operation: 'count',
				filters: {
					status: '={{ $json.status }}',
					contentPartner: partners.join(', '),
					where: '{"title": {"_is_null": false}}',
				},
			},
			{ input: [{ status: 'succeeded' }, { status: 'failed' }] },
		);
		expect(result.error).toBeUndefined();
		const expected = (status: string) =>
			records.filter(
				(row) => row.status === status && partners.includes(String(row.cp)) && row.title !== null,
			).length;
		expect(result.outputs[0]).toEqual([
			{ json: { view: 'speech_tasks', count: expected('succeeded') }, pairedItem: { item: 0 } },
			{ json: { view: 'speech_tasks', count: expected('failed') }, pairedItem: { item: 1 } },
		]);
	});
});

describe('Count without aggregate permission', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 50, aiAggregates: false });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('says clearly that counting is not available, without sending a count query', async () => {
		const result = await runAi(sandbox, { resource: 'imageTask', operation: 'count' });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			'Counting is not available: the API does not expose image_tasks_aggregate for this account',
		);
		expect(graphqlRequests(sandbox)).toBe(1);
	});
});
