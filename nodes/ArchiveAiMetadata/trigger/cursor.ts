import type { IDataObject } from 'n8n-workflow';

/**
 * The trigger's watermark: the newest time emitted, the key of that row, and the memory of the rows emitted
 * within the "Late Rows Window" before it (see lateRows.ts). A stored cursor whose memory cannot be read keeps its
 * (time, key): its next poll asks for rows strictly after that tuple, once, and starts a new memory there.
 */
export interface Cursor {
	/** Seed view name the cursor belongs to; a different view starts over. */
	view: string;
	/** Time column value exactly as the API sent it (keeps microseconds: no Date round trip). */
	time: string;
	/**
	 * Unique key values of the last emitted row, in the view's key order. Null for a cursor that only marks a
	 * moment (first activation, "Start From"): then every row at or after `time` is new.
	 */
	key: Array<string | number | null> | null;
	/** The "Start From" option this cursor was started with; changing the option starts over from the new date. */
	startFrom?: string;
	/** Rows emitted recently; absent in cursors saved before the window existed. */
	memory?: EmittedMemory;
}

/** The memory of rows emitted within the "Late Rows Window", as the cursor stores it (kept up by lateRows.ts). */
export interface EmittedMemory {
	/** Rows at or before this moment (UTC ISO with microseconds) are not read again; null: no such bound. */
	floor: string | null;
	/** `<time in µs, base 36>.<hash of the row's identity>`, oldest first. */
	entries: string[];
}

/** Columns a cursor is made of, with their live names. */
export interface CursorColumns {
	time: string;
	key: string[];
}

const STATIC_DATA_KEY = 'cursor';

export function readCursor(staticData: IDataObject): Cursor | undefined {
	const stored = staticData[STATIC_DATA_KEY] as Partial<Cursor> | undefined;
	if (!stored || typeof stored.view !== 'string' || typeof stored.time !== 'string')
		return undefined;
	const key = Array.isArray(stored.key) ? stored.key : null;
	return {
		view: stored.view,
		time: stored.time,
		key,
		startFrom: stored.startFrom,
		memory: readMemory(stored.memory),
	};
}

function readMemory(stored: unknown): EmittedMemory | undefined {
	const memory = stored as Partial<EmittedMemory> | undefined;
	if (!memory || !Array.isArray(memory.entries)) return undefined;
	const entries = memory.entries.filter(
		(entry): entry is string => typeof entry === 'string' && entry.includes('.'),
	);
	return { floor: typeof memory.floor === 'string' ? memory.floor : null, entries };
}

/** Replaces the whole object, so n8n's observable static data notices the change and saves it. */
export function saveCursor(staticData: IDataObject, cursor: Cursor): void {
	const plain: IDataObject = { view: cursor.view, time: cursor.time, key: cursor.key };
	if (cursor.startFrom !== undefined) plain.startFrom = cursor.startFrom;
	if (cursor.memory) plain.memory = { floor: cursor.memory.floor, entries: cursor.memory.entries };
	staticData[STATIC_DATA_KEY] = plain;
}

/** The cursor just after `row`, or undefined when the row has no time (such rows are never selected). */
export function cursorAfter(
	row: IDataObject,
	columns: CursorColumns,
	view: string,
	startFrom?: string,
): Cursor | undefined {
	const time = row[columns.time];
	if (typeof time !== 'string' || time === '') return undefined;
	return { view, time, key: columns.key.map((column) => keyValue(row[column])), startFrom };
}

function keyValue(value: unknown): string | number | null {
	if (typeof value === 'string' || typeof value === 'number') return value;
	return value === undefined || value === null ? null : JSON.stringify(value);
}

/**
 * Hasura `where` for "strictly after the cursor" in the order (time asc, key1 asc nulls last, key2 ...):
 * `_or: [{time > t}, {time = t, key1 > k1}, {time = t, key1 = k1, key2 > k2}, ...]`. A cursor without key
 * means "at or after t".
 */
export function afterCursorFilter(
	cursor: Pick<Cursor, 'time' | 'key'>,
	columns: CursorColumns,
): IDataObject {
	if (cursor.key === null || cursor.key.length === 0 || cursor.key.length > columns.key.length) {
		return { [columns.time]: { _gte: cursor.time } };
	}
	// A cursor saved before the key grew (matches had two key columns) compares on the columns it has: rows
	// equal on them were taken as the same row then, and were emitted.
	const keyColumns = columns.key.slice(0, cursor.key.length);
	const branches: IDataObject[] = [{ [columns.time]: { _gt: cursor.time } }];
	const equalSoFar: IDataObject[] = [{ [columns.time]: { _eq: cursor.time } }];
	keyColumns.forEach((column, index) => {
		const value = (cursor.key as Array<string | number | null>)[index];
		const later = laterThan(column, value);
		if (later) branches.push({ _and: [...equalSoFar, later] });
		equalSoFar.push(equalTo(column, value));
	});
	return { _or: branches };
}

/** Nulls sort last in ascending order: after a value come greater values and nulls; after a null, nothing. */
function laterThan(column: string, value: string | number | null): IDataObject | undefined {
	if (value === null) return undefined;
	return { _or: [{ [column]: { _gt: value } }, { [column]: { _is_null: true } }] };
}

/** Hasura v2 refuses `_eq: null`; equality with a null key is `_is_null`. */
function equalTo(column: string, value: string | number | null): IDataObject {
	return value === null ? { [column]: { _is_null: true } } : { [column]: { _eq: value } };
}

/** Ascending (time, key) order matching `afterCursorFilter`; descending for "the newest row". */
export function cursorOrder(columns: CursorColumns, direction: 'asc' | 'desc'): IDataObject[] {
	const keyDirection = direction === 'asc' ? 'asc_nulls_last' : 'desc_nulls_first';
	return [
		{ [columns.time]: direction === 'asc' ? 'asc_nulls_last' : 'desc_nulls_last' },
		...columns.key.map((column) => ({ [column]: keyDirection })),
	];
}

/** Identity of a row within one poll (offset pages can overlap when rows arrive while paging). */
export function rowIdentity(row: IDataObject, columns: CursorColumns): string {
	return JSON.stringify([row[columns.time], ...columns.key.map((column) => row[column] ?? null)]);
}
