import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { executePerItem } from '../shared/n8n/executePerItem';
import { getFields, getOrgTypes, getSectors } from './methods/loadOptions';
import { contentPartnerDescription, contentPartnerOperations } from './resources/contentPartner';
import { organizationDescription, organizationOperations } from './resources/organization';
import { personDescription, personOperations } from './resources/person';
import { schoolDescription, schoolOperations } from './resources/school';
import type { OperationHandlers } from './resources/types';

const OPERATIONS: Record<string, OperationHandlers> = {
	contentPartner: contentPartnerOperations,
	organization: organizationOperations,
	person: personOperations,
	school: schoolOperations,
};

export class ArchiveOrganization implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Archive Organization',
		name: 'archiveOrganization',
		icon: { light: 'file:archiveOrganization.svg', dark: 'file:archiveOrganization.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"Look up the archive's content partners, organizations, schools and persons (staff, account managers) with their sites, addresses and contact points",
		documentationUrl: 'https://github.com/archive-services/n8n-nodes-archive-services#archive-organization',
		defaults: { name: 'Archive Organization' },
		usableAsTool: true,
		// The classic rule predates NodeConnectionTypes and asks for the string literal the community rule forbids.
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'archiveOrganizationApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Content Partner',
						value: 'contentPartner',
						description: 'An organization whose content the archive keeps',
					},
					{ name: 'Organization', value: 'organization', description: 'Any organization known to the archive' },
					{ name: 'Person', value: 'person', description: 'A staff member or account manager' },
					{ name: 'School', value: 'school', description: 'An educational partner' },
				],
				default: 'organization',
			},
			...contentPartnerDescription,
			...organizationDescription,
			...personDescription,
			...schoolDescription,
		],
	};

	methods = { loadOptions: { getFields, getOrgTypes, getSectors } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = await executePerItem(this, async (itemIndex) => {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const handler = OPERATIONS[resource]?.[operation as keyof OperationHandlers];
			if (!handler) {
				throw new NodeOperationError(this.getNode(), `Unsupported operation "${operation}" for resource "${resource}"`, {
					itemIndex,
				});
			}
			return await handler.call(this, itemIndex);
		});
		return [items];
	}
}
