import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeProperties,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { readableSubtitle } from '../shared/n8n/descriptions';
import { routeAction } from '../shared/n8n/router';
import * as get from './actions/get.operation';
import * as getAll from './actions/getAll.operation';
import { operationProperties, ROUTES } from './actions/router';
import { searchRecords } from './methods/listSearch';
import { getFields, getOrgTypes, getSectors } from './methods/loadOptions';

const RESOURCE: INodeProperties = {
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
		{
			name: 'Organization',
			value: 'organization',
			description: 'Any organization known to the archive',
		},
		{ name: 'Person', value: 'person', description: 'A staff member or account manager' },
		{ name: 'School', value: 'school', description: 'An educational partner' },
	],
	default: 'organization',
};

export class ArchiveOrganization implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Archive Organization',
		name: 'archiveOrganization',
		icon: { light: 'file:archiveOrganization.svg', dark: 'file:archiveOrganization.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: readableSubtitle([RESOURCE, ...operationProperties]),
		description:
			"Look up the archive's content partners, organizations, schools and persons (staff, account managers) with their sites, addresses and contact points",
		documentationUrl:
			'https://github.com/archive-services/n8n-nodes-archive-services#archive-organization',
		defaults: { name: 'Archive Organization' },
		usableAsTool: true,
		// The classic rule predates NodeConnectionTypes and asks for the string literal the community rule forbids.
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'archiveOrganizationApi', required: true }],
		properties: [RESOURCE, ...operationProperties, ...get.description, ...getAll.description],
	};

	methods = {
		loadOptions: { getFields, getOrgTypes, getSectors },
		listSearch: { searchRecords },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeAction.call(this, ROUTES);
	}
}
