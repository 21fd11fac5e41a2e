import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { clearAccessTokenCache } from '../../../../credentials/common/accessToken';
import { ArchiveAiMetadataTrigger } from '../../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { clearSchemaCache } from '../../../../nodes/shared/graphql/schemaCache';
import { dateTimeToUtc } from '../../../../nodes/shared/n8n/dateTime';
import { startSandbox } from '../../../../dev/emulators';
import type { Sandbox } from '../../../../dev/emulators';
import { PollHarness } from '../../../../dev/harness/poll';
import { aiCredentials } from '../../../../dev/harness/sandboxCredentials';

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
		const count = data.count as number;
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

describe('"Start From" parsing', () => {
	it('keeps explicit zones and reads zone-less times in the workflow timezone, across daylight saving', () => {
		expect(dateTimeToUtc('2025-01-31T08:00:00Z', 'Europe/Brussels')).toBe(
			'2025-01-31T08:00:00.000Z',
		);
		expect(dateTimeToUtc('2025-01-31T08:00:00+02:00', 'UTC')).toBe('2025-01-31T06:00:00.000Z');
		expect(dateTimeToUtc('2025-01-31T08:00:00', 'Europe/Brussels')).toBe(
			'2025-01-31T07:00:00.000Z',
		);
		expect(dateTimeToUtc('2025-07-31T08:00:00', 'Europe/Brussels')).toBe(
			'2025-07-31T06:00:00.000Z',
		);
		expect(dateTimeToUtc('2025-07-31', 'America/New_York')).toBe('2025-07-31T04:00:00.000Z');
		expect(dateTimeToUtc('2025-02-30T00:00:00', 'UTC')).toBeUndefined();
		expect(dateTimeToUtc('yesterday', 'UTC')).toBeUndefined();
	});
});

describe('option lists (loadOptions through n8n-core LoadOptionsContext)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 200 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(() => {
		clearAccessTokenCache();
		clearSchemaCache();
	});

	function harness(graphqlUrl: string): PollHarness {
		const credentials = aiCredentials(sandbox, { graphqlUrl });
		return new PollHarness({
			nodeType: new ArchiveAiMetadataTrigger(),
			parameters: { view: 'speech_tasks' },
			credentials,
		});
	}

	it('lists the content partners and statuses present in the chosen view', async () => {
		const trigger = harness(sandbox.ai.graphqlUrl);
		const records = sandbox.data.ai.records('speech_tasks');
		const partners = [...new Set(records.map((row) => String(row.cp)))].sort();
		expect((await trigger.loadOptions('getContentPartners')).map((option) => option.value)).toEqual(
			partners,
		);
		const statuses = (await trigger.loadOptions('getStatuses')).map((option) => option.value);
		expect(statuses.sort()).toEqual([...new Set(records.map((row) => String(row.status)))].sort());
	});

	it('falls back to the seed statuses when the API cannot be read', async () => {
		const trigger = harness(`${sandbox.ai.baseUrl}/no-such-endpoint`);
		expect((await trigger.loadOptions('getStatuses')).map((option) => option.value)).toEqual([
			'succeeded',
			'failed',
		]);
		expect(await trigger.loadOptions('getContentPartners')).toEqual([]);
	});
});
