import { clearAccessTokenCache } from '../../../../credentials/common/accessToken';
import { ArchiveAiMetadataTrigger } from '../../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { clearSchemaCache } from '../../../../nodes/shared/graphql/schemaCache';
import { startSandbox } from '../../../../dev/emulators';
import type { Sandbox } from '../../../../dev/emulators';
import { PollHarness } from '../../../../dev/harness/poll';
import { aiCredentials } from '../../../../dev/harness/sandboxCredentials';

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
