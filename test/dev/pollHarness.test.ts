import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { PollHarness } from '../../dev/harness/poll';

/** Counts its polls in static data and emits on every second poll. */
class Counter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Counter',
		name: 'counter',
		group: ['trigger'],
		version: 1,
		description: 'Counts polls',
		defaults: { name: 'Counter' },
		polling: true,
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const data = this.getWorkflowStaticData('node');
		data.count = ((data.count as number | undefined) ?? 0) + 1;
		const count = data.count;
		return count % 2 === 0
			? [[{ json: { count, mode: this.getMode(), activation: this.getActivationMode() } }]]
			: null;
	}
}

describe('poll harness (genuine n8n-core PollContext)', () => {
	it('keeps static data in memory between polls and saves it when a poll emits, as n8n does', async () => {
		const harness = new PollHarness({ nodeType: new Counter(), parameters: {} });
		expect((await harness.poll()).items).toBeNull();
		expect(harness.savedStaticData).toEqual({});
		const second = await harness.poll();
		expect(second.items?.[0][0].json).toEqual({
			count: 2,
			mode: 'trigger',
			activation: 'activate',
		});
		expect(harness.savedStaticData).toEqual({ 'node:Trigger Under Test': { count: 2 } });
		await harness.poll(); // count 3, not emitted: only in memory
		harness.restart();
		expect(harness.nodeStaticData).toEqual({ count: 2 });
		await harness.poll({ mode: 'manual' }); // count 3
		const manual = await harness.poll({ mode: 'manual' });
		expect(manual.items?.[0][0].json).toEqual({ count: 4, mode: 'manual', activation: 'manual' });
		// Manual runs never write static data to the database.
		expect(harness.savedStaticData).toEqual({ 'node:Trigger Under Test': { count: 2 } });
	});
});
