import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { runNode } from '../../../../dev/harness/execute';
import { executeGrouped } from '../../../../nodes/shared/n8n/executeGrouped';
import type { GroupResults } from '../../../../nodes/shared/n8n/executeGrouped';

/**
 * A node whose look-up groups items by their `group` field and answers each item with its `value` (no rows without
 * one), except the items listed in the `forget` parameter: its run leaves them out of the results, as a defective
 * operation would.
 */
class Lookup implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lookup',
		name: 'lookup',
		group: ['transform'],
		version: 1,
		description: 'Grouped look-up',
		defaults: { name: 'Lookup' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Forget', name: 'forget', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const forget = JSON.parse(this.getNodeParameter('forget', 0) as string) as number[];
		const items = this.getInputData();
		return [
			await executeGrouped(this, {
				read: (itemIndex) => items[itemIndex].json,
				groupKey: (json) => String(json.group),
				run: async (group) => {
					const results: GroupResults = new Map();
					for (const { itemIndex, parameters } of group)
						if (!forget.includes(itemIndex))
							results.set(
								itemIndex,
								parameters.value === undefined ? [] : [{ value: parameters.value }],
							);
					return results;
				},
			}),
		];
	}
}

const input = [
	{ group: 'a', value: 0 },
	{ group: 'b', value: 1 },
	{ group: 'a', value: 2 },
];

describe('executeGrouped: an item its group left without a result', () => {
	it('fails the run, naming that item', async () => {
		const result = await runNode({
			nodeType: new Lookup(),
			parameters: { forget: '[2]' },
			input,
		});
		expect(result.error?.message).toBe(
			"Internal error: item 2 got no result from its group's look-up",
		);
		expect(result.error?.context?.itemIndex).toBe(2);
	});

	it('with Continue On Fail, gets an error item paired with it; the other items their results', async () => {
		const result = await runNode({
			nodeType: new Lookup(),
			parameters: { forget: '[1]' },
			input,
			settings: { continueOnFail: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{ json: { value: 0 }, pairedItem: { item: 0 } },
			{
				json: {
					error: "Internal error: item 1 got no result from its group's look-up",
					errorDescription: 'This is a defect of the node; please report it.',
				},
				pairedItem: { item: 1 },
			},
			{ json: { value: 2 }, pairedItem: { item: 2 } },
		]);
	});

	it('an item whose result is empty is no error: it has no output item', async () => {
		const result = await runNode({
			nodeType: new Lookup(),
			parameters: { forget: '[]' },
			input: [input[0], { group: 'b' }, input[2]],
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{ json: { value: 0 }, pairedItem: { item: 0 } },
			{ json: { value: 2 }, pairedItem: { item: 2 } },
		]);
	});
});
