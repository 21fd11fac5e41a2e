import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { shapeRecord } from '../api/views';
import { keyOf, readCursor, rowIdentity, saveCursor } from './cursor';
import type { Cursor, CursorColumns, EmittedMemory } from './cursor';
import { claimPoll, emitConfirmed, settlePendingRun } from './runConfirmation';
import {
	MAX_REMEMBERED_ROWS,
	microsToIso,
	notRemembered,
	remember,
	timestampMicros,
	windowStart,
} from './lateRows';
import { cursorColumnsOf, fetchNewest, fetchOrdered, selectedColumns, userFilters } from './query';
import type { OrderedRow } from './query';
import { openViewSource } from '../api/viewSource';
import type { ViewSource } from '../api/viewSource';
import { readSettings } from './settings';
import type { TriggerSettings } from './settings';

/**
 * One poll: the rows not emitted yet, oldest first, at most "Max Records per Poll", late rows within the window
 * included. Manual runs show the newest record and move nothing. While a poll of this trigger is still under way
 * (n8n does not wait for it), the next one does nothing.
 */
export async function pollNewRecords(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	if (ctx.getMode() === 'manual') return await latestForManualRun(ctx, settings);

	const release = claimPoll(ctx, settings.reemitAfterMinutes * 60_000);
	if (!release) {
		ctx.logger.debug(
			'Archive AI Metadata Trigger: the last poll is still under way; this poll time is skipped',
			{ workflowId: ctx.getWorkflow().id, node: ctx.getNode().name },
		);
		return null;
	}
	try {
		return await pollOnce(ctx, settings);
	} finally {
		release();
	}
}

async function openSource(ctx: IPollFunctions, settings: TriggerSettings): Promise<ViewSource> {
	return await openViewSource(ctx, settings.view, {
		maxRetries: settings.maxRetries,
		parameter: 'View',
	});
}

/** The poll proper, while this trigger holds its claim (no other poll of it runs in this process). */
async function pollOnce(
	ctx: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][] | null> {
	const staticData = ctx.getWorkflowStaticData('node');
	if (runStillGoing(ctx, staticData, settings)) return null;
	const source = await openSource(ctx, settings);
	const columns = cursorColumnsOf(source.view);
	let cursor = usableCursor(readCursor(staticData), settings);
	if (!cursor) {
		cursor = await startingCursor(ctx, source, columns, settings);
		saveCursor(staticData, cursor);
		// Without "Start From" the cursor marks the newest existing record: nothing can be new yet.
		if (!settings.startFrom) return null;
	}

	const watermark = requireMicros(ctx, cursor.time, columns.time);
	const lowerBound = windowStart(watermark, settings.lateRowsWindowMinutes);
	const rows = await fetchOrdered(
		ctx,
		source,
		settings,
		cursor.memory.floor,
		microsToIso(lowerBound),
		settings.maxRecordsPerPoll + cursor.memory.entries.length,
	);
	const fresh = notRemembered(rows, cursor.memory).slice(0, settings.maxRecordsPerPoll);
	if (fresh.length === 0) return null;
	// Shaped first: a row that cannot be emitted must not be remembered as emitted.
	const items = emit(
		ctx,
		source,
		settings,
		fresh.map(({ row }) => row),
	);
	const next = nextCursor(ctx, cursor, watermark, fresh, columns, settings);
	// The cursor moves once the run finished; n8n saves the committed one with this emission.
	emitConfirmed(ctx, staticData, [items], cursor, next);
	return null;
}

/** Whether the run the last poll started is still going; otherwise it is committed, or given up on (logged). */
function runStillGoing(
	ctx: IPollFunctions,
	staticData: IDataObject,
	settings: TriggerSettings,
): boolean {
	const gate = settlePendingRun(ctx, staticData, settings.reemitAfterMinutes * 60_000);
	if (!gate.proceed) return true;
	if (gate.gaveUp) {
		ctx.logger.warn(
			gate.gaveUp === 'failed'
				? 'Archive AI Metadata Trigger: the run started by the last poll could not start; its records are emitted again'
				: `Archive AI Metadata Trigger: the run started by the last poll has not finished within ${settings.reemitAfterMinutes} minutes; its records are emitted again`,
			{ workflowId: ctx.getWorkflow().id, node: ctx.getNode().name },
		);
	}
	return false;
}

/** The cursor after emitting `fresh`: the newest time and row emitted, and the memory of the window below it. */
function nextCursor(
	ctx: IPollFunctions,
	cursor: Cursor,
	watermark: number,
	fresh: OrderedRow[],
	columns: CursorColumns,
	settings: TriggerSettings,
): Cursor {
	let newest = { micros: watermark, time: cursor.time, key: cursor.key };
	const emitted = fresh.map(({ row, identity, micros: read }) => {
		const timeValue = row[columns.time] as string;
		const time = String(timeValue);
		const micros = read ?? requireMicros(ctx, time, columns.time);
		// Rows come oldest first: the last one at the newest time is the newest row.
		if (micros >= newest.micros) newest = { micros, time, key: keyOf(row, columns) };
		return { micros, identity };
	});
	const lowerBound = windowStart(newest.micros, settings.lateRowsWindowMinutes);
	return {
		view: settings.view,
		time: newest.time,
		key: newest.key,
		startFrom: cursor.startFrom,
		memory: remember(cursor.memory, emitted, lowerBound, newest.micros),
	};
}

function requireMicros(ctx: IPollFunctions, time: string, column: string): number {
	const micros = timestampMicros(time);
	if (micros === undefined)
		throw new NodeOperationError(
			ctx.getNode(),
			`The API sent a ${column} that is not a timestamp: ${JSON.stringify(time)}`,
		);
	return micros;
}

/** A stored cursor still applies when it watches the same view and was started from the same "Start From". */
function usableCursor(cursor: Cursor | undefined, settings: TriggerSettings): Cursor | undefined {
	if (!cursor || cursor.view !== settings.view) return undefined;
	if (settings.startFrom !== undefined && cursor.startFrom !== settings.startFrom) return undefined;
	return cursor;
}

/**
 * First activation: from "Start From", else from the newest record the API holds (the server's clock, so a skewed
 * n8n clock cannot skip or repeat records), or now for an empty view. The floor keeps older rows out of the window.
 */
async function startingCursor(
	ctx: IPollFunctions,
	source: ViewSource,
	columns: CursorColumns,
	settings: TriggerSettings,
): Promise<Cursor> {
	const { view, startFrom } = settings;
	if (startFrom) {
		const floor = microsToIso(requireMicros(ctx, startFrom, 'Start From') - 1);
		return { view, time: startFrom, key: null, startFrom, memory: { floor, entries: [] } };
	}
	const [newest] = await fetchNewest(ctx, source, [], [columns.time, ...columns.key], 1);
	const time = newest?.[columns.time];
	if (typeof time !== 'string' || time === '') {
		const now = new Date().toISOString();
		return { view, time: now, key: null, memory: { floor: now, entries: [] } };
	}
	const memory = await existingRowsInWindow(ctx, source, columns, time, settings);
	return { view, time, key: keyOf(newest, columns), memory };
}

/**
 * At activation the rows already within the window count as emitted, so a late row is told apart from them; of
 * more than MAX_REMEMBERED_ROWS, the floor goes above the oldest time read.
 */
async function existingRowsInWindow(
	ctx: IPollFunctions,
	source: ViewSource,
	columns: CursorColumns,
	newestTime: string,
	settings: TriggerSettings,
): Promise<EmittedMemory> {
	const newestMicros = requireMicros(ctx, newestTime, columns.time);
	const lowerBound = windowStart(newestMicros, settings.lateRowsWindowMinutes);
	const inWindow = { [columns.time]: { _gte: microsToIso(lowerBound) } };
	const rows = await fetchNewest(
		ctx,
		source,
		[inWindow],
		[columns.time, ...columns.key],
		MAX_REMEMBERED_ROWS,
	);
	const entries = rows.map((row) => ({
		micros: requireMicros(ctx, String(row[columns.time] as string), columns.time),
		identity: rowIdentity(row, columns),
	}));
	// All rows of the window were read, or only the newest: then what is older than the oldest time read is out.
	const floorMicros =
		rows.length < MAX_REMEMBERED_ROWS
			? lowerBound - 1
			: Math.min(entries[entries.length - 1].micros, newestMicros - 1);
	return remember(
		{ floor: microsToIso(floorMicros), entries: [] },
		entries.filter((entry) => entry.micros > floorMicros),
		lowerBound,
		newestMicros,
	);
}

async function latestForManualRun(
	ctx: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][]> {
	const source = await openSource(ctx, settings);
	const fields = selectedColumns(ctx, source.view, settings);
	const rows = await fetchNewest(ctx, source, userFilters(source.view, settings), fields, 1);
	if (rows.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No records match the current filters', {
			description:
				'Check "Status Names or IDs" and "Content Partner Names or IDs", or pick another view.',
		});
	}
	return [emit(ctx, source, settings, rows)];
}

function emit(
	ctx: IPollFunctions,
	source: ViewSource,
	settings: TriggerSettings,
	rows: IDataObject[],
): INodeExecutionData[] {
	let records: IDataObject[];
	try {
		records = rows.map((row) =>
			shapeRecord(source.view, row, { keepRawJson: settings.keepRawJson, inPlace: true }),
		);
	} catch (error) {
		// A list column holding neither a JSON array nor a Postgres array literal.
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
	if (settings.emitAs === 'oneItem') {
		return [{ json: { view: source.view.rootField, count: records.length, records } }];
	}
	return records.map((json) => ({ json }));
}
