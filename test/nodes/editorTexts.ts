import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { ArchiveAiMetadataApi } from '../../credentials/ArchiveAiMetadataApi.credentials';
import { ArchiveOrganizationApi } from '../../credentials/ArchiveOrganizationApi.credentials';
import { ArchiveSipWebhookApi } from '../../credentials/ArchiveSipWebhookApi.credentials';
import { ArchiveAiMetadata } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { ArchiveAiMetadataTrigger } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import { ArchiveOrganization } from '../../nodes/ArchiveOrganization/ArchiveOrganization.node';
import { ArchiveSipStatusTrigger } from '../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';

/** Every text the editor shows of the package's nodes and credential forms, for the tests that hold texts to rules. */

export type TextKind = 'label' | 'description' | 'hint' | 'notice' | 'placeholder' | 'action';

export interface EditorText {
	/** Where a builder sees it, e.g. "Archive AI Metadata › Options › Max File Size (MiB)". */
	where: string;
	text: string;
	kind: TextKind;
	/** For a placeholder: the type of the field it sits in. */
	fieldType?: string;
}

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

const NODE_TYPES: INodeType[] = [
	new ArchiveSipStatusTrigger(),
	new ArchiveAiMetadata(),
	new ArchiveAiMetadataTrigger(),
	new ArchiveOrganization(),
];

const CREDENTIAL_TYPES: ICredentialType[] = [
	new ArchiveAiMetadataApi(),
	new ArchiveOrganizationApi(),
	new ArchiveSipWebhookApi(),
];

/** The texts of parameters, their options and nested values, named by where they stand. */
function propertyTexts(owner: string, properties: Entry[]): EditorText[] {
	const texts: EditorText[] = [];
	for (const entry of properties) {
		const name = 'displayName' in entry ? entry.displayName : entry.name;
		const where = `${owner} › ${name}`;
		const isNotice = 'type' in entry && entry.type === 'notice';
		texts.push({ where, text: String(name), kind: isNotice ? 'notice' : 'label' });
		if ('description' in entry && entry.description)
			texts.push({ where, text: entry.description, kind: 'description' });
		if ('hint' in entry && entry.hint) texts.push({ where, text: entry.hint, kind: 'hint' });
		if ('placeholder' in entry && entry.placeholder)
			texts.push({ where, text: entry.placeholder, kind: 'placeholder', fieldType: entry.type });
		if ('action' in entry && entry.action)
			texts.push({ where, text: entry.action, kind: 'action' });
		const nested = ('options' in entry && entry.options) || ('values' in entry && entry.values);
		if (Array.isArray(nested)) texts.push(...propertyTexts(where, nested));
	}
	return texts;
}

function nodeTexts(node: INodeType): EditorText[] {
	const { displayName, description, properties, triggerPanel, hints } = node.description;
	const texts: EditorText[] = [{ where: displayName, text: description, kind: 'description' }];
	if (typeof triggerPanel === 'object') {
		for (const [key, value] of Object.entries(triggerPanel)) {
			const where = `${displayName} › trigger panel ${key}`;
			if (typeof value === 'string') texts.push({ where, text: value, kind: 'description' });
			if (typeof value === 'object') {
				for (const [state, text] of Object.entries(value as Record<string, string>))
					texts.push({ where: `${where} ${state}`, text, kind: 'description' });
			}
		}
	}
	for (const hint of hints ?? [])
		texts.push({ where: `${displayName} › hint`, text: hint.message, kind: 'hint' });
	return [...texts, ...propertyTexts(displayName, properties)];
}

export function editorTexts(): EditorText[] {
	return [
		...NODE_TYPES.flatMap(nodeTexts),
		...CREDENTIAL_TYPES.flatMap((credential) =>
			propertyTexts(credential.displayName, credential.properties),
		),
	];
}
