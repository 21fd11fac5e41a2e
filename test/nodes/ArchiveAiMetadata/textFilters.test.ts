import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../dev/emulators';
import { jsonOf, resetState, runAi, withSandbox } from './helpers';

/** "Contains" filters match their text literally: `%`, `_` and `\` are not LIKE wildcards or escapes. */
describe('friendly text filters match the text literally', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 150 });
		const ai = sandbox.data.ai;
		for (const title of [
			'Koers 100% live',
			'Koers_2020 herfst',
			'Pad C:\\archief\\koers',
			'KOERS_2020 HERFST',
		]) {
			ai.insert('face_tasks', { values: { title } });
		}
		ai.insert('refset_persons', { values: { label: 'Jan_Peeters' } });
		ai.insert('refset_persons', { values: { label: 'Anna 50% Claes' } });
		ai.insert('face_matches', { values: { refset_person_name: 'Jan_Peeters' } });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	/** Every row whose column contains `text`, case-insensitively: what the filter promises. */
	function containing(view: string, column: string, text: string): IDataObject[] {
		return (sandbox.data.ai.records(view) as IDataObject[]).filter((row) =>
			String(row[column] ?? '')
				.toLowerCase()
				.includes(text.toLowerCase()),
		);
	}

	it.each([
		['faceTask', 'face_tasks', 'title', 'title', '_'],
		['faceTask', 'face_tasks', 'title', 'title', '%'],
		['faceTask', 'face_tasks', 'title', 'title', 'koers_2020'],
		['faceTask', 'face_tasks', 'title', 'title', 'C:\\archief\\'],
		['faceMatch', 'face_matches', 'personName', 'refset_person_name', '_'],
		['refsetPerson', 'refset_persons', 'label', 'label', '%'],
		['refsetPerson', 'refset_persons', 'label', 'label', 'n_p'],
	])('%s: %s filter %s contains %j', async (resource, view, filter, column, text) => {
		const expected = containing(view, column, text);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(sandbox.data.ai.records(view).length / 10);
		const result = await runAi(sandbox, {
			resource,
			operation: 'getAll',
			returnAll: true,
			filters: { [filter]: text },
		});
		expect(result.error).toBeUndefined();
		const values = jsonOf(result).map((row) => row[column]);
		expect(values.sort()).toEqual(expected.map((row) => row[column]).sort());
	});
});
