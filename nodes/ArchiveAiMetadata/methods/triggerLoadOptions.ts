import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { buildViewQuery } from '../api/documents';
import { DOCUMENTED_STATUSES, TRIGGER_VIEWS } from '../trigger/description';
import type { TriggerView } from '../trigger/description';
import { openViewSource } from '../trigger/query';

/** Editor lists stay small; a role with thousands of partners types the ids in an expression instead. */
const MAX_LISTED_VALUES = 500;

function currentView(ctx: ILoadOptionsFunctions): TriggerView {
	const view = ctx.getCurrentNodeParameter('view');
	return (TRIGGER_VIEWS as readonly unknown[]).includes(view)
		? (view as TriggerView)
		: 'face_tasks';
}

/**
 * Distinct values of one column of the chosen view (Hasura `distinct_on`), or undefined when they cannot be
 * read (no schema, no such column, no access): the caller then offers the documented values.
 */
async function distinctValues(
	ctx: ILoadOptionsFunctions,
	column: string,
): Promise<string[] | undefined> {
	try {
		const source = await openViewSource(ctx, { view: currentView(ctx), maxRetries: 1 });
		if (
			!source.schema ||
			!source.view.columns.includes(column) ||
			!source.view.argumentTypes.distinct_on
		)
			return undefined;
		const document = buildViewQuery(source.view, {
			rootField: source.view.rootField,
			operationName: 'AiMetadataTriggerDistinct',
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

function toOptions(values: string[]): INodePropertyOptions[] {
	return values.map((value) => ({ name: value, value }));
}

export async function getStatuses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const live = await distinctValues(this, 'status');
	// The documented statuses stay selectable even when no row has them yet.
	return toOptions([...new Set([...DOCUMENTED_STATUSES, ...(live ?? [])])]);
}

export async function getContentPartners(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return toOptions((await distinctValues(this, 'cp')) ?? []);
}
