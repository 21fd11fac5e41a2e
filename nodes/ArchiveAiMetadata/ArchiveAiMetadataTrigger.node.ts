import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { TRIGGER_SUBTITLE, triggerProperties } from './trigger/description';
import { getContentPartners, getStatuses, getViewFields } from './methods/loadOptions';
import { pollNewRecords } from './trigger/poll';

export class ArchiveAiMetadataTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Archive AI Metadata Trigger',
		name: 'archiveAiMetadataTrigger',
		icon: {
			light: 'file:archiveAiMetadataTrigger.svg',
			dark: 'file:archiveAiMetadataTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		description:
			// n8n's node creator shows this description for the action node too (it merges a node with its trigger).
			'Read AI metadata of archived media (face and image detection, reference-set matches and persons, speech-to-text, named entities), or start a workflow with the records that are new or changed',
		documentationUrl:
			'https://github.com/archive-services/n8n-nodes-archive-services#archive-ai-metadata-trigger',
		defaults: { name: 'Archive AI Metadata Trigger' },
		polling: true,
		inputs: [],
		// The classic rule predates NodeConnectionTypes; the current community rule requires it.
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'archiveAiMetadataApi', required: true }],
		properties: triggerProperties,
	};

	methods = {
		loadOptions: { getStatuses, getContentPartners, getViewFields },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollNewRecords(this);
	}
}
