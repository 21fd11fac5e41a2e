import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ArchiveOrganization } from '../../../nodes/ArchiveOrganization/ArchiveOrganization.node';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import { jsonOf, runOrganizationNode } from './helpers';

/** Output Simplified of every Organization query holds what its description in the editor names. */
const sandbox = useSandbox({ rows: 60 });

function simplifiedDescription(resource: string): string {
	const output = new ArchiveOrganization().description.properties.find(
		(property: INodeProperties) =>
			property.name === 'output' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes('getAll'),
	);
	const options = output?.options as Array<{ value: string; description: string }>;
	return options.find((option) => option.value === 'simplified')?.description ?? '';
}

async function simplifiedRows(resource: string): Promise<IDataObject[]> {
	const result = await runOrganizationNode(sandbox(), {
		resource,
		operation: 'getAll',
		returnAll: false,
		limit: 20,
		output: 'simplified',
	});
	expect(result.error).toBeUndefined();
	const rows = jsonOf(result);
	expect(rows.length).toBeGreaterThan(0);
	return rows;
}

const isPlain = (value: unknown) => value === null || typeof value !== 'object';

describe('Output Simplified holds what its description names', () => {
	it.each(['contentPartner', 'organization', 'school'])(
		'%s: the fields that hold a value (ID, IRI, label, homepage and the like), no links',
		async (resource) => {
			expect(simplifiedDescription(resource)).toBe(
				'The fields that hold a value rather than a link: ID, IRI, label, homepage and the like',
			);
			for (const row of await simplifiedRows(resource)) {
				expect(Object.keys(row)).toEqual(
					expect.arrayContaining(['id', 'iri', 'label', 'homepage']),
				);
				expect(Object.entries(row).filter(([, value]) => !isPlain(value))).toEqual([]);
			}
		},
	);

	it('person: IRI, names, e-mail and telephone, and each post held as its role and organization', async () => {
		expect(simplifiedDescription('person')).toBe(
			'IRI, given and family name, e-mail and telephone, with each post held: its role and the ID and label of its organization',
		);
		const rows = await simplifiedRows('person');
		for (const row of rows) {
			expect(Object.keys(row).sort()).toEqual(
				['iri', 'given_name', 'family_name', 'email', 'telephone', 'holds'].sort(),
			);
			for (const post of (row.holds ?? []) as IDataObject[]) {
				expect(Object.keys(post).sort()).toEqual(['post_in', 'role']);
				expect(post.role === null || Object.keys(post.role as IDataObject)).toEqual(
					post.role === null ? true : ['label'],
				);
				for (const organization of (post.post_in ?? []) as IDataObject[])
					expect(Object.keys(organization).sort()).toEqual(['id', 'label']);
			}
		}
		// The emulator's staff hold posts: the test sees some.
		expect(rows.some((row) => ((row.holds ?? []) as unknown[]).length > 0)).toBe(true);
	});
});
