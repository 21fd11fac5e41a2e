import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { runNode } from '../../dev/harness/execute';

/** A tiny node used only to prove the harness runs nodes the way n8n does. */
class Doubler implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Doubler',
		name: 'doubler',
		group: ['transform'],
		version: 1,
		description: 'Doubles n',
		defaults: { name: 'Doubler' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Factor', name: 'factor', type: 'number', default: 2 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const n = items[i].json.n as number;
			if (n < 0) {
				const error = new NodeOperationError(this.getNode(), 'n must not be negative', {
					itemIndex: i,
				});
				if (this.continueOnFail()) {
					out.push({ json: { error: error.message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
			out.push({
				json: { n: n * (this.getNodeParameter('factor', i) as number) },
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

describe('execution harness (real n8n-core WorkflowExecute)', () => {
	it('runs a node over its input items with resolved parameters', async () => {
		const result = await runNode({
			nodeType: new Doubler(),
			parameters: { factor: '={{ $json.n + 1 }}' },
			input: [{ n: 1 }, { n: 3 }],
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0].map((item) => item.json)).toEqual([{ n: 2 }, { n: 12 }]);
	});

	it('records the error, or continues when continueOnFail is set', async () => {
		const failed = await runNode({ nodeType: new Doubler(), parameters: {}, input: [{ n: -1 }] });
		expect(failed.error?.message).toBe('n must not be negative');
		const continued = await runNode({
			nodeType: new Doubler(),
			parameters: {},
			input: [{ n: -1 }, { n: 2 }],
			settings: { continueOnFail: true },
		});
		expect(continued.outputs[0].map((item) => item.json)).toEqual([
			{ error: 'n must not be negative' },
			{ n: 4 },
		]);
	});
});
