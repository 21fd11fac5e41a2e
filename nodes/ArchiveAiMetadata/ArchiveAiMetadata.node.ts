import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { getDownloadableFiles, getFields } from './methods';
import { customQueryDescription } from './resources/customQuery';
import { executeCustomQuery } from './resources/customQuery/execute';
import { faceMatchDescription } from './resources/faceMatch';
import { faceTaskDescription } from './resources/faceTask';
import { imageMatchDescription } from './resources/imageMatch';
import { imageTaskDescription } from './resources/imageTask';
import { nerTaskDescription } from './resources/nerTask';
import { refsetPersonDescription } from './resources/refsetPerson';
import { speechTaskDescription } from './resources/speechTask';
import { countProperties, executeCount } from './resources/views/count';
import { downloadFilesProperties, executeDownloadFiles } from './resources/views/downloadFiles';
import { executeGet, getProperties } from './resources/views/get';
import { executeGetByPid, getByPidProperties } from './resources/views/getByPid';
import { executeGetMany, getManyProperties } from './resources/views/getMany';
import { AiSession } from './shared/session';
import { viewByResource } from './shared/views';
import type { AiViewKey } from './shared/views';

/**
 * One main input and output. A named constant because the two lint rule sets disagree on the literal form
 * (`['main']` vs `[NodeConnectionTypes.Main]`); the value is the same.
 */
const MAIN_CONNECTION = [NodeConnectionTypes.Main];

type ViewOperationHandler = (session: AiSession, viewKey: AiViewKey) => Promise<INodeExecutionData[]>;

const VIEW_OPERATIONS: Record<string, ViewOperationHandler> = {
	count: executeCount,
	downloadFiles: executeDownloadFiles,
	get: executeGet,
	getAll: executeGetMany,
	getByPid: executeGetByPid,
};

export class ArchiveAiMetadata implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Archive AI Metadata',
		name: 'archiveAiMetadata',
		icon: { light: 'file:archiveAiMetadata.svg', dark: 'file:archiveAiMetadata.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read AI-generated metadata of archived media: face and image detection tasks, matches with the reference set, reference-set persons, speech-to-text and named-entity tasks',
		documentationUrl: 'https://github.com/archive-services/n8n-nodes-archive-services#archive-ai-metadata',
		defaults: { name: 'Archive AI Metadata' },
		usableAsTool: true,
		inputs: MAIN_CONNECTION,
		outputs: MAIN_CONNECTION,
		credentials: [{ name: 'archiveAiMetadataApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Custom Query', value: 'customQuery', description: 'Any read-only GraphQL query' },
					{ name: 'Face Match', value: 'faceMatch', description: 'Matches of persons detected in video with the reference set' },
					{ name: 'Face Task', value: 'faceTask', description: 'Face and person detection results on video fragments' },
					{ name: 'Image Match', value: 'imageMatch', description: 'Matches of persons detected in photos with the reference set' },
					{ name: 'Image Task', value: 'imageTask', description: 'Face and person detection results on photos' },
					{ name: 'NER Task', value: 'nerTask', description: 'Named entity recognition results' },
					{ name: 'Reference-Set Person', value: 'refsetPerson', description: 'Persons of the reference set that faces are matched with' },
					{ name: 'Speech Task', value: 'speechTask', description: 'Speech-to-text results: transcripts and audio classification' },
				],
				default: 'faceTask',
			},
			...faceTaskDescription,
			...imageTaskDescription,
			...faceMatchDescription,
			...imageMatchDescription,
			...refsetPersonDescription,
			...speechTaskDescription,
			...nerTaskDescription,
			...customQueryDescription,
			...getProperties,
			...getManyProperties,
			...getByPidProperties,
			...countProperties,
			...downloadFilesProperties,
		],
	};

	methods = {
		loadOptions: { getFields, getDownloadableFiles },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const session = new AiSession(this);
		if (resource === 'customQuery') return [await executeCustomQuery(session)];
		const view = viewByResource(resource);
		const handler = VIEW_OPERATIONS[operation];
		if (!view || !handler) {
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for "${resource}"`, {
				itemIndex: 0,
			});
		}
		return [await handler(session, view.key)];
	}
}
