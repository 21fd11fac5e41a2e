import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { TRIGGER_VIEWS } from '../trigger/description';
import type { TriggerView } from '../trigger/description';
import { columnOptions, contentPartnerOptions, statusOptions } from './viewLists';

function currentView(ctx: ILoadOptionsFunctions): TriggerView {
	const view = ctx.getCurrentNodeParameter('view');
	return (TRIGGER_VIEWS as readonly unknown[]).includes(view)
		? (view as TriggerView)
		: 'face_tasks';
}

export async function getStatuses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await statusOptions(this, currentView(this));
}

export async function getContentPartners(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await contentPartnerOptions(this, currentView(this));
}

/** Columns of the watched view, for Output "Selected Fields". */
export async function getViewFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await columnOptions(this, currentView(this));
}
