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
import { AI_VIEW_KEYS, AI_VIEWS } from './api/views';
import type { AiViewKey } from './api/views';
import { operationParameters, operationProperties, ROUTES } from './actions/router';
import { searchRecentRecords } from './methods/listSearch';
import {
	getDownloadableFiles,
	getFields,
	getFilterContentPartners,
	getFilterStatuses,
} from './methods/loadOptions';

const RESOURCE_DESCRIPTIONS: Record<AiViewKey, string> = {
	face_tasks: 'Face and person detection results on video fragments',
	image_tasks: 'Face and person detection results on photos',
	face_matches: 'Matches of persons detected in video with the reference set',
	image_matches: 'Matches of persons detected in photos with the reference set',
	refset_persons: 'Persons of the reference set that faces are matched with',
	speech_tasks: 'Speech-to-text results: transcripts and audio classification',
	ner_tasks: 'Named entity recognition results',
};

const RESOURCE: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Custom Query', value: 'customQuery', description: 'Any read-only GraphQL query' },
		...AI_VIEW_KEYS.map((key) => ({
			name: AI_VIEWS[key].displayName,
			value: AI_VIEWS[key].resource,
			description: RESOURCE_DESCRIPTIONS[key],
		})),
	].sort((a, b) => a.name.localeCompare(b.name)),
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
		// The classic rule predates NodeConnectionTypes and asks for the string literal the community rule forbids.
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
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
