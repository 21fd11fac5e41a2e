import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { viewByResource } from '../api/views';
import type { AiViewKey } from '../api/views';
import { columnOptions, contentPartnerOptions, editorView, statusOptions } from './viewLists';

/** The view the chosen resource reads, or undefined for Custom Query. */
function resourceViewKey(ctx: ILoadOptionsFunctions): AiViewKey | undefined {
	return viewByResource(
		String((ctx.getCurrentNodeParameter('resource') as string | undefined) ?? ''),
	)?.key;
}

export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const key = resourceViewKey(this);
	return key ? await columnOptions(this, key) : [];
}

export async function getDownloadableFiles(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const key = resourceViewKey(this);
	if (!key) return [];
	return (await editorView(this, key)).files.map((file) => ({
		name: file.displayName,
		value: file.column,
		description: `Column ${file.column}`,
	}));
}

// The Get Many filters show only for view resources; the first task view stands in for any other.
export async function getFilterStatuses(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await statusOptions(this, resourceViewKey(this) ?? 'face_tasks');
}

export async function getFilterContentPartners(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await contentPartnerOptions(this, resourceViewKey(this) ?? 'face_tasks');
}
