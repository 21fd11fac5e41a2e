import type { IHttpRequestOptions, ILoadOptionsFunctions, INode } from 'n8n-workflow';

import {
	getDownloadableFiles,
	getFields,
} from '../../../nodes/ArchiveAiMetadata/methods/loadOptions';
import type { AiNaming, Sandbox } from '../../../dev/emulators';
import { aiToken } from '../../dev/emulators/testHelpers';
import { resetState, withSandbox } from './helpers';

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

	it('lists the fields of the live view, with their types', async () => {
		const fields = await getFields.call(loadOptionsContext(sandbox, 'nerTask'));
		expect(fields.map((field) => field.value)).toEqual(
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
		expect(fields.find((field) => field.value === 'task_id')?.description).toBe('Type: uuid');
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
		expect(fields.find((field) => field.value === 'task_id')?.description).toBeUndefined();
	});
});
