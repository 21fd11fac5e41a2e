import type { IDataObject } from 'n8n-workflow';

/** The trigger's watermark: the newest time and row emitted, and the memory of the window before it. */
export interface Cursor {
	/** Seed view name the cursor belongs to; a different view starts over. */
	view: string;
	/** Time column value exactly as the API sent it (keeps microseconds: no Date round trip). */
	time: string;
	/** Unique key values of the newest emitted row; null for a moment (an empty view, "Start From"). */
	key: Array<string | number | null> | null;
	/** The "Start From" option this cursor was started with; changing the option starts over from the new date. */
	startFrom?: string;
	memory: EmittedMemory;
}

/** The memory of rows emitted within the "Late Rows Window", as the cursor stores it (kept up by lateRows.ts). */
export interface EmittedMemory {
	/** Rows at or before this moment (UTC ISO with microseconds) are not read again; null: no such bound. */
	floor: string | null;
	/** `<time in µs, base 36>.<hash of the row's identity>`, oldest first. */
	entries: string[];
}

export interface CursorColumns {
	time: string;
	key: string[];
}

const STATIC_DATA_KEY = 'cursor';

export function readCursor(staticData: IDataObject): Cursor | undefined {
	const stored = staticData[STATIC_DATA_KEY] as Partial<Cursor> | undefined;
	const memory = stored?.memory as Partial<EmittedMemory> | undefined;
	if (typeof stored?.view !== 'string' || typeof stored.time !== 'string') return undefined;
	if (!memory || !Array.isArray(memory.entries)) return undefined;
	return {
		view: stored.view,
		time: stored.time,
		key: Array.isArray(stored.key) ? stored.key : null,
		startFrom: stored.startFrom,
		memory: {
			floor: typeof memory.floor === 'string' ? memory.floor : null,
			entries: memory.entries.filter(
				(entry): entry is string => typeof entry === 'string' && entry.includes('.'),
			),
		},
	};
}

/** Replaces the whole object, so n8n's observable static data notices the change and saves it. */
export function saveCursor(staticData: IDataObject, cursor: Cursor): void {
	const { view, time, key, startFrom, memory } = cursor;
	staticData[STATIC_DATA_KEY] = {
		view,
		time,
		key,
		...(startFrom === undefined ? {} : { startFrom }),
		memory: { floor: memory.floor, entries: memory.entries },
	};
}

export function keyOf(row: IDataObject, columns: CursorColumns): Array<string | number | null> {
	return columns.key.map((column) => keyValue(row[column]));
}

function keyValue(value: unknown): string | number | null {
	if (typeof value === 'string' || typeof value === 'number') return value;
	return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Ascending (time, key) order, nulls last in the keys; descending for "the newest row". */
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
