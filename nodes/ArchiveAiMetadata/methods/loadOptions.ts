import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { loadSchema } from '../../shared/graphql/schemaCache';
import { labelOf, valueKindOf } from '../../shared/n8n/english';
import { AI_METADATA_SERVICE, createAiMetadataClient } from '../api/client';
import { buildViewQuery } from '../api/documents';
import { resolveViewOrDocumented, viewByResource } from '../api/views';
import type { AiViewKey, ResolvedView } from '../api/views';
import { DOCUMENTED_STATUSES, TRIGGER_VIEWS } from '../trigger/description';
import type { TriggerView } from '../trigger/description';
import { openViewSource } from '../api/viewSource';

/**
 * The view with live names; when the schema cannot be read (no credential yet, API down), the documented names, so
 * the lists still show something sensible.
 */
async function editorView(ctx: ILoadOptionsFunctions, viewKey: AiViewKey): Promise<ResolvedView> {
	try {
		const client = await createAiMetadataClient(ctx, { retry: { maxRetries: 1 } });
		const schema = await loadSchema(ctx, client, AI_METADATA_SERVICE.credentialType);
		return resolveViewOrDocumented(schema, viewKey);
	} catch {
		return resolveViewOrDocumented(undefined, viewKey);
	}
}

/** The view's columns by readable name, sorted; the hint gives the API's name and what the column holds. */
async function columnOptions(
	ctx: ILoadOptionsFunctions,
	viewKey: AiViewKey,
): Promise<INodePropertyOptions[]> {
	const view = await editorView(ctx, viewKey);
	return [...view.columns]
		.map((column) => {
			const kind = valueKindOf(view.columnTypes[column]);
			return {
				name: labelOf(column),
				value: column,
				description: `Column "${column}"${kind ? `: ${kind}` : ''}`,
			};
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** Editor lists stay small; a role with thousands of partners types the ids in an expression instead. */
const MAX_LISTED_VALUES = 500;

/**
 * Distinct values of one column of a view (Hasura `distinct_on`), or undefined when they cannot be read (no schema,
 * no such column, no access): the caller then offers the documented values.
 */
async function distinctValues(
	ctx: ILoadOptionsFunctions,
	viewKey: AiViewKey,
	column: string,
): Promise<string[] | undefined> {
	try {
		const source = await openViewSource(ctx, viewKey, { maxRetries: 1 });
		if (
			!source.schema ||
			!source.view.columns.includes(column) ||
			!source.view.argumentTypes.distinct_on
		)
			return undefined;
		const document = buildViewQuery(source.view, {
			rootField: source.view.rootField,
			operationName: 'AiMetadataDistinct',
			arguments: ['distinct_on', 'order_by', 'limit'],
			fields: [column],
		});
		const data = await source.client.request<Record<string, IDataObject[]>>({
			document,
			variables: {
				distinct_on: [column],
				order_by: [{ [column]: 'asc' }],
				limit: MAX_LISTED_VALUES,
			},
		});
		return (data[source.view.rootField] ?? [])
			.map((row) => row[column])
			.filter((value): value is string => typeof value === 'string' && value !== '');
	} catch {
		return undefined;
	}
}

/** The view the chosen resource reads, or undefined for Custom Query. */
export function resourceViewKey(ctx: ILoadOptionsFunctions): AiViewKey | undefined {
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

function currentView(ctx: ILoadOptionsFunctions): TriggerView {
	const view = ctx.getCurrentNodeParameter('view');
	return (TRIGGER_VIEWS as readonly unknown[]).includes(view)
		? (view as TriggerView)
		: 'face_tasks';
}

type ViewOf = (ctx: ILoadOptionsFunctions) => AiViewKey;

/** The statuses rows of the view have, plus the documented ones (selectable even when no row has them yet). */
function statusList(viewOf: ViewOf) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const live = await distinctValues(this, viewOf(this), 'status');
		return [...new Set([...DOCUMENTED_STATUSES, ...(live ?? [])])].map((status) => ({
			name: labelOf(status),
			value: status,
		}));
	};
}

/** The content partners (cp) rows of the view have. */
function contentPartnerList(viewOf: ViewOf) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const live = await distinctValues(this, viewOf(this), 'cp');
		return (live ?? []).map((cp) => ({ name: cp, value: cp }));
	};
}

// The Get Many filters show only for view resources; the first task view stands in for any other.
const filterView: ViewOf = (ctx) => resourceViewKey(ctx) ?? 'face_tasks';
export const getFilterStatuses = statusList(filterView);
export const getFilterContentPartners = contentPartnerList(filterView);
export const getStatuses = statusList(currentView);
export const getContentPartners = contentPartnerList(currentView);

export async function getViewFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await columnOptions(this, currentView(this));
}
