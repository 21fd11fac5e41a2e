import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { ArchiveOrganization } from '../../../nodes/ArchiveOrganization/ArchiveOrganization.node';

const description = new ArchiveAiMetadata().description;

const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];
const resources = optionsOf(
	description.properties.find((property) => property.name === 'resource') as INodeProperties,
).map((option) => String(option.value));

function operationsOf(resource: string): INodePropertyOptions[] {
	const property = description.properties.find(
		(candidate) =>
			candidate.name === 'operation' &&
			candidate.displayOptions?.show?.resource?.includes(resource),
	);
	return property ? optionsOf(property) : [];
}

describe('node description', () => {
	it('follows the conventions for AI agents and the editor', () => {
		expect(description.name).toBe('archiveAiMetadata');
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([{ name: 'archiveAiMetadataApi', required: true }]);
		expect(description.documentationUrl).toMatch(
			/^https:\/\/github\.com\/archive-services\/n8n-nodes-archive-services#/,
		);
	});

	it('Get and Download Files pick the record with a resource locator: recent records From List, or By ID (a UUID)', () => {
		for (const name of ['taskId', 'personId']) {
			const locator = description.properties.find((property) => property.name === name);
			expect(locator?.type).toBe('resourceLocator');
			expect(locator?.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
			expect(locator?.modes?.[0].typeOptions?.searchListMethod).toBe('searchRecentRecords');
			const validation = locator?.modes?.[1].validation?.[0] as unknown as {
				properties: { regex: string };
			};
			const uuid = new RegExp(validation.properties.regex);
			expect(uuid.test('0b6a4d1e-3f5c-4b8a-9c2d-7e1f0a9b8c7d')).toBe(true);
			expect(uuid.test('0b6a4d1e')).toBe(false);
		}
		expect(Object.keys(new ArchiveAiMetadata().methods.listSearch)).toEqual([
			'searchRecentRecords',
		]);
	});

	it('Get and Download Files offer Max Concurrent Requests for their look-up batches, as Organization Get does', () => {
		const optionOf = (properties: INodeProperties[], resource: string, operation: string) =>
			properties
				.filter(
					(property) =>
						property.name === 'options' &&
						property.displayOptions?.show?.resource?.includes(resource) &&
						property.displayOptions?.show?.operation?.includes(operation),
				)
				.flatMap((collection) => (collection.options ?? []) as INodeProperties[])
				.find((option) => option.name === 'maxConcurrency');
		const organizationGet = optionOf(
			new ArchiveOrganization().description.properties,
			'contentPartner',
			'get',
		);
		expect(organizationGet).toBeDefined();
		for (const [resource, operation] of [
			['speechTask', 'get'],
			['refsetPerson', 'get'],
			['speechTask', 'downloadFiles'],
			['nerTask', 'downloadFiles'],
		]) {
			const option = optionOf(description.properties, resource, operation);
			expect(option).toEqual({
				...organizationGet,
				description:
					'How many requests to send at the same time; each asks for up to 500 distinct IDs of the input items. Lower it if the API limits concurrent requests.',
			});
		}
	});

	it('Get Many offers Status and Content Partner as multi-selects loaded from the API', () => {
		const filters = description.properties.filter((property) => property.name === 'filters');
		const entries = filters.flatMap(
			(collection) => (collection.options ?? []) as INodeProperties[],
		);
		const methods = new ArchiveAiMetadata().methods.loadOptions;
		for (const name of ['status', 'contentPartner']) {
			const variants = entries.filter((entry) => entry.name === name);
			expect(variants.length).toBeGreaterThan(0);
			for (const entry of variants) {
				expect(entry.type).toBe('multiOptions');
				expect(methods).toHaveProperty(String(entry.typeOptions?.loadOptionsMethod));
			}
		}
	});

	it("offers the issue's operations per resource, each with an action and a description", () => {
		const offered = Object.fromEntries(
			resources.map((resource) => [
				resource,
				operationsOf(resource)
					.map((option) => option.value)
					.sort(),
			]),
		);
		expect(offered).toEqual({
			customQuery: ['execute'],
			faceMatch: ['count', 'getAll', 'getByPid'],
			faceTask: ['count', 'get', 'getAll', 'getByPid'],
			imageMatch: ['count', 'getAll', 'getByPid'],
			imageTask: ['count', 'get', 'getAll', 'getByPid'],
			nerTask: ['count', 'downloadFiles', 'get', 'getAll', 'getByPid'],
			refsetPerson: ['count', 'get', 'getAll'],
			speechTask: ['count', 'downloadFiles', 'get', 'getAll', 'getByPid'],
		});
		for (const resource of resources) {
			for (const option of operationsOf(resource)) {
				expect(option.action).toEqual(expect.any(String));
				expect(option.description?.length).toBeGreaterThan(20);
			}
		}
	});

	it("resolves the parameters of every resource and operation with n8n's own defaults logic", () => {
		for (const resource of resources) {
			for (const option of operationsOf(resource)) {
				const node = { parameters: { resource, operation: option.value } } as unknown as INode;
				const parameters = NodeHelpers.getNodeParameters(
					description.properties,
					node.parameters,
					true,
					false,
					node,
					description,
				);
				expect(parameters).toMatchObject({ resource, operation: option.value });
				if (option.value === 'getAll')
					expect(parameters).toMatchObject({ returnAll: false, limit: 50, output: 'simplified' });
			}
		}
	});
});
