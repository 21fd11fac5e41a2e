import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';

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
		expect(description.subtitle).toBe(
			'={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		);
		expect(description.credentials).toEqual([{ name: 'archiveAiMetadataApi', required: true }]);
		expect(description.documentationUrl).toMatch(
			/^https:\/\/github\.com\/archive-services\/n8n-nodes-archive-services#/,
		);
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
					expect(parameters).toMatchObject({ returnAll: false, limit: 50, fieldSelection: 'all' });
			}
		}
	});
});
