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
import { operationParameters, operationProperties, ROUTES } from './actions/router';
import { searchRecentRecords } from './methods/listSearch';
import {
	getDownloadableFiles,
	getFields,
	getFilterContentPartners,
	getFilterStatuses,
} from './methods/loadOptions';

/**
 * One main input and output. A named constant because the two lint rule sets disagree on the literal form
 * (`['main']` vs `[NodeConnectionTypes.Main]`); the value is the same.
 */
const MAIN_CONNECTION = [NodeConnectionTypes.Main];

const RESOURCE: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Custom Query',
			value: 'customQuery',
			description: 'Any read-only GraphQL query',
		},
		{
			name: 'Face Match',
			value: 'faceMatch',
			description: 'Matches of persons detected in video with the reference set',
		},
		{
			name: 'Face Task',
			value: 'faceTask',
			description: 'Face and person detection results on video fragments',
		},
		{
			name: 'Image Match',
			value: 'imageMatch',
			description: 'Matches of persons detected in photos with the reference set',
		},
		{
			name: 'Image Task',
			value: 'imageTask',
			description: 'Face and person detection results on photos',
		},
		{ name: 'NER Task', value: 'nerTask', description: 'Named entity recognition results' },
		{
			name: 'Reference-Set Person',
			value: 'refsetPerson',
			description: 'Persons of the reference set that faces are matched with',
		},
		{
			name: 'Speech Task',
			value: 'speechTask',
			description: 'Speech-to-text results: transcripts and audio classification',
		},
	],
	default: 'faceTask',
};

export class ArchiveAiMetadata implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Archive AI Metadata',
		name: 'archiveAiMetadata',
		icon: { light: 'file:archiveAiMetadata.svg', dark: 'file:archiveAiMetadata.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: readableSubtitle([RESOURCE, ...operationProperties]),
		description:
			'Read AI-generated metadata of archived media: face and image detection tasks, matches with the reference set, reference-set persons, speech-to-text and named-entity tasks',
		documentationUrl:
			'https://github.com/archive-services/n8n-nodes-archive-services#archive-ai-metadata',
		defaults: { name: 'Archive AI Metadata' },
		usableAsTool: true,
		inputs: MAIN_CONNECTION,
		outputs: MAIN_CONNECTION,
		credentials: [{ name: 'archiveAiMetadataApi', required: true }],
		properties: [RESOURCE, ...operationProperties, ...operationParameters],
	};

	methods = {
		loadOptions: { getFields, getDownloadableFiles, getFilterContentPartners, getFilterStatuses },
		listSearch: { searchRecentRecords },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeAction.call(this, ROUTES);
	}
}
