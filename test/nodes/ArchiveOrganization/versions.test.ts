import type { INodeProperties } from 'n8n-workflow';

import { ArchiveOrganization } from '../../../nodes/ArchiveOrganization/ArchiveOrganization.node';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import { jsonOf, runOrganizationNode, sortedByIri } from './helpers';

// Version 2 names Get Many `getAll`; version 1 keeps `getMany`, the value (and the default) saved workflows hold.
const sandbox = useSandbox({ rows: 20 });

function operationSelectors(version: number): INodeProperties[] {
	return new ArchiveOrganization().description.properties.filter(
		(property) =>
			property.name === 'operation' &&
			(property.displayOptions?.show?.['@version'] as number[]).includes(version),
	);
}

describe('node versions', () => {
	it('version 2 is the default for new nodes', () => {
		const { description } = new ArchiveOrganization();
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
	});

	it.each([
		[1, 'getMany'],
		[2, 'getAll'],
	])('version %i offers Get Many as %s, its default, for every resource', (version, value) => {
		const selectors = operationSelectors(version);
		expect(selectors).toHaveLength(4);
		for (const selector of selectors) {
			expect(selector.default).toBe(value);
			expect(
				(selector.options as Array<{ name: string; value: string }>).map((option) => option.value),
			).toEqual(['get', value]);
		}
	});

	it('a version 1 node with every parameter at its default lists what a version 2 node lists', async () => {
		const v1 = await runOrganizationNode(sandbox(), {}, { typeVersion: 1 });
		const v2 = await runOrganizationNode(sandbox(), {}, { typeVersion: 2 });
		const expected = sortedByIri(sandbox().data.org.organizations)
			.slice(0, 50)
			.map((each) => each.id);

		expect(v1.error).toBeUndefined();
		expect(jsonOf(v1).map((row) => row.id)).toEqual(expected);
		expect(jsonOf(v2)).toEqual(jsonOf(v1));
	});

	it('getMany in version 1 and getAll in version 2 give the same persons, with the same parameters', async () => {
		const parameters = { resource: 'person', limit: 3, options: { pageSize: 2 } };
		const v1 = await runOrganizationNode(
			sandbox(),
			{ ...parameters, operation: 'getMany' },
			{ typeVersion: 1 },
		);
		const v2 = await runOrganizationNode(
			sandbox(),
			{ ...parameters, operation: 'getAll' },
			{ typeVersion: 2 },
		);

		expect(jsonOf(v1).map((row) => row.iri)).toEqual(
			sortedByIri(sandbox().data.org.persons)
				.slice(0, 3)
				.map((each) => each.iri),
		);
		expect(jsonOf(v2)).toEqual(jsonOf(v1));
	});

	it('an unknown operation is refused, naming it', async () => {
		const result = await runOrganizationNode(sandbox(), { resource: 'person', operation: 'list' });
		expect(result.error?.message).toBe('The operation "list" is not supported for "person"');
	});
});
