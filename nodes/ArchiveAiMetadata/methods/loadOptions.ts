import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { viewByResource } from '../api/views';
import type { AiViewKey, ResolvedView } from '../api/views';
import { columnOptions, contentPartnerOptions, editorView, statusOptions } from './viewLists';

/** The current resource's view (live names, or the documented ones when the schema cannot be read). */
async function currentView(ctx: ILoadOptionsFunctions): Promise<ResolvedView | undefined> {
	const definition = viewByResource(String(ctx.getCurrentNodeParameter('resource') ?? ''));
	return definition ? await editorView(ctx, definition.key) : undefined;
}

export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const definition = viewByResource(String(this.getCurrentNodeParameter('resource') ?? ''));
	return definition ? await columnOptions(this, definition.key) : [];
}

export async function getDownloadableFiles(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const view = await currentView(this);
	if (!view) return [];
	return view.files.map((file) => ({
		name: file.displayName,
		value: file.column,
		description: `Column ${file.column}`,
	}));
}

/** The chosen resource's view, for the Get Many filters; the first task view when the resource has none. */
function currentViewKey(ctx: ILoadOptionsFunctions): AiViewKey {
	return viewByResource(String(ctx.getCurrentNodeParameter('resource') ?? ''))?.key ?? 'face_tasks';
}

export async function getFilterStatuses(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await statusOptions(this, currentViewKey(this));
}

export async function getFilterContentPartners(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await contentPartnerOptions(this, currentViewKey(this));
}
