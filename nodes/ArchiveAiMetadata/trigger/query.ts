import { validate } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { buildViewQuery } from '../api/documents';
import { fieldsFor } from '../api/query';
import {
	loadSchemaUnlessRefused,
	probeRootField,
	withDocumentedNamesHint,
} from '../api/introspection';
import { createAiMetadataClient } from '../api/client';
import {
	AI_VIEWS,
	findRootField,
	resolveView,
	documentedView,
	ViewNotFoundError,
} from '../api/views';
import type { ResolvedView } from '../api/views';
import { fetchAllByOffset } from '../../shared/graphql/pagination';
import type { GraphqlClient, RequestContext } from '../../shared/graphql/client';
import { afterCursorFilter, cursorOrder, rowIdentity } from './cursor';
import type { Cursor, CursorColumns } from './cursor';
import type { TriggerSettings } from './settings';

const PAGE_ARGUMENTS = ['where', 'order_by', 'limit', 'offset'];

/** The API client plus the watched view with its live names. */
export interface ViewSource {
	client: GraphqlClient;
	view: ResolvedView;
	/** The live schema, when it could be read; documents are validated against it before sending. */
	schema?: GraphQLSchema;
}

/**
 * Connects and resolves the view's live names. When the API refuses introspection (a GraphQL error, not an HTTP
 * or connection failure) the documented names are used and the server itself judges the query.
 */
export async function openViewSource(
	ctx: RequestContext,
	settings: Pick<TriggerSettings, 'view' | 'maxRetries'>,
): Promise<ViewSource> {
	// One client per poll: its credential is decrypted once for the poll, not once per request.
	const client = await createAiMetadataClient(ctx, { retry: { maxRetries: settings.maxRetries } });
	const schema = await loadSchemaUnlessRefused(ctx, client);
	if (!schema)
		return {
			client,
			view: documentedView(settings.view, await probeRootField(ctx, client, settings.view)),
		};
	const definition = AI_VIEWS[settings.view];
	if (!findRootField(schema, definition)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Parameter "View": ${new ViewNotFoundError(definition).message}`,
			{
				description: 'The account may not have access to this view.',
			},
		);
	}
	return { client, view: resolveView(schema, settings.view), schema };
}

/**
 * The cursor is made of the view's time column and its unique key without the time column and without list
 * columns (a list cannot be compared with _gt; rows tied on every other column are told apart by the trigger's
 * memory of emitted rows).
 */
export function cursorColumnsOf(view: ResolvedView): CursorColumns {
	const listColumns = view.definition.listColumns;
	return {
		time: view.timeColumn,
		key: view.uniqueKey.filter((column) => column !== view.timeColumn && !(column in listColumns)),
	};
}

/** Status and content partner filters (the cursor comes on top). */
export function userFilters(view: ResolvedView, settings: TriggerSettings): IDataObject[] {
	const filters: IDataObject[] = [];
	if (settings.statuses.length > 0 && view.columns.includes('status'))
		filters.push({ status: { _in: settings.statuses } });
	if (settings.contentPartners.length > 0 && view.columns.includes('cp'))
		filters.push({ cp: { _in: settings.contentPartners } });
	return filters;
}

/** Selected columns; the cursor's columns are always among them, as the next cursor is read from the rows. */
export function selectedColumns(
	ctx: IPollFunctions,
	view: ResolvedView,
	settings: Pick<TriggerSettings, 'selection'>,
): string[] {
	const columns = fieldsFor(ctx, 0, settings.selection, view);
	const cursorColumns = cursorColumnsOf(view);
	return [...new Set([...columns, cursorColumns.time, ...cursorColumns.key])];
}

function pageDocument(ctx: IPollFunctions, source: ViewSource, fields: string[]): DocumentNode {
	const document = buildViewQuery(source.view, {
		rootField: source.view.rootField,
		operationName: 'AiMetadataTriggerPoll',
		arguments: PAGE_ARGUMENTS,
		fields,
	});
	if (source.schema) {
		const errors = validate(source.schema, document);
		if (errors.length > 0) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Parameter "Fields": the query is not valid for this API: ${errors.map((error) => error.message).join('; ')}`,
			);
		}
	}
	return document;
}

async function fetchRows(
	source: ViewSource,
	document: DocumentNode,
	variables: IDataObject,
	signal?: AbortSignal,
): Promise<IDataObject[]> {
	const data = await source.client
		.request<Record<string, IDataObject[]>>({ document, variables }, 0, signal)
		.catch((error: unknown) => {
			throw withDocumentedNamesHint(error, source.view);
		});
	const rows = data[source.view.rootField];
	return Array.isArray(rows) ? rows : [];
}

/** The newest rows by (time, key), for the first activation's cursor and for manual test events. */
export async function fetchNewest(
	ctx: IPollFunctions,
	source: ViewSource,
	filters: IDataObject[],
	fields: string[],
	limit: number,
): Promise<IDataObject[]> {
	const columns = cursorColumnsOf(source.view);
	const where = { _and: [...filters, { [columns.time]: { _is_null: false } }] };
	return await fetchRows(source, pageDocument(ctx, source, fields), {
		where,
		order_by: cursorOrder(columns, 'desc'),
		limit,
		offset: 0,
	});
}

/** Where a poll reads: after the (time, key) cursor (no memory, or no window), or the window span above the floor. */
export function positionFilter(
	cursor: Cursor,
	columns: CursorColumns,
	windowStartIso: string | undefined,
): IDataObject {
	if (!cursor.memory || windowStartIso === undefined) return afterCursorFilter(cursor, columns);
	const span: IDataObject = { [columns.time]: { _gte: windowStartIso } };
	return cursor.memory.floor === null
		? span
		: { _and: [span, { [columns.time]: { _gt: cursor.memory.floor } }] };
}

/**
 * The rows of one position (up to `maxRows`), oldest first, by (time, key). The filter is fixed for the whole
 * poll, so offsets address one ordered result; a row seen twice (rows arriving while paging shift offsets) is
 * kept once.
 */
export async function fetchOrdered(
	ctx: IPollFunctions,
	source: ViewSource,
	position: IDataObject,
	filters: IDataObject[],
	fields: string[],
	settings: Pick<TriggerSettings, 'pageSize' | 'concurrency'>,
	maxRows: number,
): Promise<IDataObject[]> {
	const columns = cursorColumnsOf(source.view);
	const document = pageDocument(ctx, source, fields);
	const where = { _and: [...filters, position] };
	const order = cursorOrder(columns, 'asc');
	const rows = await fetchAllByOffset(
		async (offset, limit, signal) =>
			await fetchRows(source, document, { where, order_by: order, limit, offset }, signal),
		{ pageSize: Math.min(settings.pageSize, maxRows), concurrency: settings.concurrency, maxRows },
	);
	const seen = new Set<string>();
	return rows.filter((row) => {
		const identity = rowIdentity(row, columns);
		if (seen.has(identity)) return false;
		seen.add(identity);
		return true;
	});
}
