import type { INodeProperties } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import type { Sandbox } from '../../../dev/emulators';
import { jsonOf, resetState, runAi, withSandbox } from './helpers';

/** The example in each view's Advanced Filter (JSON) hint runs on that view, in the seed's and the live naming. */

const RESOURCES = [
	'faceTask',
	'imageTask',
	'faceMatch',
	'imageMatch',
	'refsetPerson',
	'speechTask',
	'nerTask',
];

function exampleOf(resource: string): string {
	const filters = new ArchiveAiMetadata().description.properties.find(
		(property) =>
			property.name === 'filters' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes('count'),
	);
	const where = (filters?.options as INodeProperties[] | undefined)?.find(
		(option) => option.name === 'where',
	);
	const example = /e\.g\. (\{.*\})\.$/.exec(where?.description ?? '')?.[1];
	if (!example) throw new Error(`no Advanced Filter example for ${resource}`);
	return example;
}

describe.each(['seed', 'live'] as const)('Advanced Filter (JSON) hints (%s naming)', (naming) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 50, aiNaming: naming });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it.each(RESOURCES)("%s: the hint's example is a valid filter of that view", async (resource) => {
		const example = exampleOf(resource);
		const result = await runAi(sandbox, {
			resource,
			operation: 'count',
			filters: { where: example },
		});
		expect(result.error).toBeUndefined();
		expect(typeof jsonOf(result)[0].count).toBe('number');
	});

	it('differs by view: no single example is offered where its column does not exist', () => {
		expect(new Set(RESOURCES.map(exampleOf)).size).toBeGreaterThan(1);
	});
});
