import type { IHttpRequestOptions, ILoadOptionsFunctions, INode } from 'n8n-workflow';

import { searchRecentRecords } from '../../../nodes/ArchiveAiMetadata/methods/listSearch';
import {
	getDownloadableFiles,
	getFields,
	getFilterContentPartners,
	getFilterStatuses,
} from '../../../nodes/ArchiveAiMetadata/methods/loadOptions';
import type { AiNaming, Sandbox } from '../../../dev/emulators';
import { aiToken } from '../../dev/emulators/testHelpers';
import { resetState, withSandbox } from './helpers';
import { listProblems } from '../englishRules';
import { AI_VIEWS } from '../../../nodes/ArchiveAiMetadata/api/views';

/**
 * The editor's option lists run in a load-options context, which the workflow harness does not provide. This one
 * answers `httpRequestWithAuthentication` with a real request to the emulator, with a real token.
 */
function loadOptionsContext(
	sandbox: Sandbox,
	resource: string,
	graphqlUrl = sandbox.ai.graphqlUrl,
): ILoadOptionsFunctions {
	const node = {
		name: 'AI',
		credentials: { archiveAiMetadataApi: { id: `cred-${graphqlUrl}`, name: 'AI' } },
	} as unknown as INode;
	return {
		getNode: () => node,
		getCurrentNodeParameter: (name: string) => (name === 'resource' ? resource : undefined),
		getCredentials: async () => ({ graphqlUrl }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				const response = await fetch(options.url, {
					method: options.method,
					headers: {
						'content-type': 'application/json',
						authorization: `Bearer ${await aiToken(sandbox)}`,
					},
					body: JSON.stringify(options.body),
				});
				return { statusCode: response.status, headers: {}, body: await response.json() };
			},
		},
	} as unknown as ILoadOptionsFunctions;
}

describe.each<AiNaming>(['seed', 'live'])('option lists (%s naming)', (naming) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 5, aiNaming: naming });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	const vendor = naming === 'seed' ? 'extractor_json' : 'nerengine_json';

	it('lists the fields of the live view by readable names, their API names and types as hints', async () => {
		const fields = await getFields.call(loadOptionsContext(sandbox, 'nerTask'));
		expect(fields.map((field) => field.value).sort()).toEqual(
			[
				'cp',
				'error',
				vendor,
				'fragment_id',
				'pid',
				'processed_json',
				'processed_time',
				'status',
				'task_id',
			].sort(),
		);
		expect(fields.find((field) => field.value === 'task_id')).toMatchObject({
			name: 'Task ID',
			description: 'Column "task_id": a UUID',
		});
		expect(fields.find((field) => field.value === 'cp')?.name).toBe('Content Partner');
		const names = fields.map((field) => field.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it('lists the downloadable files with live column names', async () => {
		const files = await getDownloadableFiles.call(loadOptionsContext(sandbox, 'nerTask'));
		expect(files.map((file) => file.value)).toEqual(['processed_json', vendor]);
	});

	it('falls back to the seed names when the schema cannot be read', async () => {
		const unreachable = 'http://127.0.0.1:9/ai-results/v1/graphql';
		const context = loadOptionsContext(sandbox, 'nerTask', unreachable);
		(context.helpers as { httpRequestWithAuthentication: unknown }).httpRequestWithAuthentication =
			async () => {
				throw new Error('connect ECONNREFUSED 127.0.0.1:9');
			};
		const fields = await getFields.call(context);
		expect(fields.map((field) => field.value)).toContain('extractor_json');
		expect(fields.find((field) => field.value === 'task_id')?.description).toBe('Column "task_id"');
	});
});

describe('Get Many filter lists and From List (live naming)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 120, aiNaming: 'live' });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it('Status and Content Partner list the values rows of the chosen view have', async () => {
		const records = sandbox.data.ai.records('speech_tasks');
		const context = loadOptionsContext(sandbox, 'speechTask');
		const partners = await getFilterContentPartners.call(context);
		expect(partners.map((option) => option.value)).toEqual(
			[...new Set(records.map((row) => String(row.cp)))].sort(),
		);
		const statuses = (await getFilterStatuses.call(context)).map((option) => option.value);
		expect(statuses).toEqual(
			expect.arrayContaining([...new Set(records.map((row) => String(row.status)))]),
		);
		expect(statuses).toEqual(expect.arrayContaining(['succeeded', 'failed']));
	});

	it('From List shows the newest records first, named by title and time, holding the id', async () => {
		const records = sandbox.data.ai.records('speech_tasks');
		const newest = [...records].sort(
			(a, b) =>
				String(b.processed_time).localeCompare(String(a.processed_time)) ||
				String(a.task_id).localeCompare(String(b.task_id)),
		);
		const first = await searchRecentRecords.call(loadOptionsContext(sandbox, 'speechTask'));
		expect(first.results.map((item) => item.value)).toEqual(
			newest.slice(0, 50).map((row) => row.task_id),
		);
		expect(first.results[0].name).toContain(String(newest[0].title ?? newest[0].pid));
		expect(first.paginationToken).toBe('50');
		const second = await searchRecentRecords.call(
			loadOptionsContext(sandbox, 'speechTask'),
			'',
			String(first.paginationToken),
		);
		expect(second.results.map((item) => item.value)).toEqual(
			newest.slice(50, 100).map((row) => row.task_id),
		);
	});

	it('From List searches titles and PIDs case-insensitively, and finds a whole UUID by id', async () => {
		const records = sandbox.data.ai.records('speech_tasks');
		const target = records[17];
		const byPid = await searchRecentRecords.call(
			loadOptionsContext(sandbox, 'speechTask'),
			String(target.pid).toUpperCase(),
		);
		expect(byPid.results.map((item) => item.value)).toContain(target.task_id);
		const byId = await searchRecentRecords.call(
			loadOptionsContext(sandbox, 'speechTask'),
			String(target.task_id),
		);
		expect(byId.results.map((item) => item.value)).toEqual([target.task_id]);
		const none = await searchRecentRecords.call(
			loadOptionsContext(sandbox, 'speechTask'),
			'no title has 50%_ of this',
		);
		expect(none.results).toEqual([]);
	});

	it('reference-set persons are listed by label', async () => {
		const person = [...sandbox.data.ai.records('refset_persons')].sort((a, b) =>
			String(b.modified_at).localeCompare(String(a.modified_at)),
		)[0];
		const found = await searchRecentRecords.call(loadOptionsContext(sandbox, 'refsetPerson'));
		expect(found.results[0]).toEqual({
			name: expect.stringContaining(String(person.label)),
			value: person.id,
		});
	});

	// The lists also serve the AI Metadata Trigger (the same functions, its View instead of the Resource).
	it('every list, for every view, reads as English (labels of API values included)', async () => {
		const problems: string[] = [];
		for (const view of Object.values(AI_VIEWS)) {
			const context = loadOptionsContext(sandbox, view.resource);
			const at = (list: string) => `${view.displayName} › ${list}`;
			problems.push(
				...listProblems(at('Field Names or IDs'), await getFields.call(context), true),
				...listProblems(at('Status Names or IDs'), await getFilterStatuses.call(context), true),
				...listProblems(
					at('Content Partner Names or IDs'),
					await getFilterContentPartners.call(context),
					false,
				),
				...listProblems(at('From List'), (await searchRecentRecords.call(context)).results, false),
			);
			if (view.files.length > 0)
				problems.push(...listProblems(at('Files'), await getDownloadableFiles.call(context), true));
		}
		expect(problems).toEqual([]);
	});
});
