import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { fieldsFor } from '../api/documents';
import { readRows } from '../api/viewSource';
import type { ViewSource } from '../api/viewSource';
import type { ResolvedView } from '../api/views';
import { cursorOrder, rowIdentity } from './cursor';
import { timestampMicros } from './lateRows';
import type { CursorColumns } from './cursor';
import type { TriggerSettings } from './settings';

/** The cursor's columns: the time and the unique key without it and without list columns (which do not sort). */
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

const OPERATION_NAME = 'AiMetadataTriggerPoll';

/** Problems the live schema finds in a poll's query name the trigger's field list. */
const PARAMETER_NAMES = { selection: 'Field Names or IDs', variables: {} };

/** The newest rows by (time, key), for the first activation's cursor and for manual test events. */
export async function fetchNewest(
	ctx: IPollFunctions,
	source: ViewSource,
	filters: IDataObject[],
	fields: string[],
	limit: number,
): Promise<IDataObject[]> {
	const columns = cursorColumnsOf(source.view);
	return await readRows(
		ctx,
		source,
		0,
		{
			where: { _and: [...filters, { [columns.time]: { _is_null: false } }] },
			orderBy: cursorOrder(columns, 'desc'),
			fields,
			pageSize: limit,
			concurrency: 1,
			maxRows: limit,
			singlePage: true,
			operationName: OPERATION_NAME,
		},
		PARAMETER_NAMES,
	);
}

/** A row a poll read, with its identity (`rowIdentity`, hashed for the memory) and its time in µs, read once. */
export interface OrderedRow {
	row: IDataObject;
	identity: string;
	/** Undefined when the time column holds no timestamp (an error once the row is to be emitted). */
	micros: number | undefined;
}

/**
 * The rows of the window span from `windowStartIso` above the memory's `floor` (up to `maxRows`), oldest first. A
 * row seen twice (rows arriving while paging shift offsets) is kept once.
 */
export async function fetchOrdered(
	ctx: IPollFunctions,
	source: ViewSource,
	settings: TriggerSettings,
	floor: string | null,
	windowStartIso: string,
	maxRows: number,
): Promise<OrderedRow[]> {
	const columns = cursorColumnsOf(source.view);
	const position: IDataObject[] = [{ [columns.time]: { _gte: windowStartIso } }];
	if (floor !== null) position.push({ [columns.time]: { _gt: floor } });
	const rows = await readRows(
		ctx,
		source,
		0,
		{
			where: { _and: [...userFilters(source.view, settings), ...position] },
			orderBy: cursorOrder(columns, 'asc'),
			fields: selectedColumns(ctx, source.view, settings),
			pageSize: settings.pageSize,
			concurrency: settings.concurrency,
			maxRows,
			operationName: OPERATION_NAME,
		},
		PARAMETER_NAMES,
		// Read while the next pages are on their way.
		(page) =>
			page.map((row) => ({
				row,
				identity: rowIdentity(row, columns),
				micros: timestampMicros(String(row[columns.time] as string)),
			})),
	);
	const seen = new Set<string>();
	return rows.filter(({ identity }) => {
		if (seen.has(identity)) return false;
		seen.add(identity);
		return true;
	});
}
