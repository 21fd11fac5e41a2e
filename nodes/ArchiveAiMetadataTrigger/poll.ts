import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { shapeRecord } from '../ArchiveAiMetadata/shared/views';
import { cursorAfter, readCursor, saveCursor } from './cursor';
import type { Cursor } from './cursor';
import { cursorColumnsOf, fetchAfterCursor, fetchNewest, openViewSource, selectedColumns, userFilters } from './query';
import type { ViewSource } from './query';
import { readSettings } from './settings';
import type { TriggerSettings } from './settings';

/**
 * One poll: the records new since the cursor, oldest first, at most "Max Records per Poll"; the cursor moves to
 * the last record emitted, so the rest follow next time. Manual runs show the newest record and move nothing.
 */
export async function pollNewRecords(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const source = await openViewSource(ctx, settings);
	if (ctx.getMode() === 'manual') return await latestForManualRun(ctx, source, settings);

	const staticData = ctx.getWorkflowStaticData('node');
	let cursor = usableCursor(readCursor(staticData), settings);
	if (!cursor) {
		cursor = await startingCursor(ctx, source, settings);
		saveCursor(staticData, cursor);
		// Without "Start From" the cursor marks the newest existing record: nothing can be new yet.
		if (!settings.startFrom) return null;
	}

	const fields = selectedColumns(source.view, settings);
	const rows = await fetchAfterCursor(ctx, source, cursor, userFilters(source.view, settings), fields, settings);
	if (rows.length === 0) return null;
	// Shaped first: a row that cannot be emitted must not move the cursor past it.
	const items = emit(ctx, source, settings, rows);
	const next = cursorAfter(rows[rows.length - 1], cursorColumnsOf(source.view), settings.view, cursor.startFrom);
	if (next) saveCursor(staticData, next);
	return [items];
}

/** A stored cursor still applies when it watches the same view and was started from the same "Start From". */
function usableCursor(cursor: Cursor | undefined, settings: TriggerSettings): Cursor | undefined {
	if (!cursor || cursor.view !== settings.view) return undefined;
	if (settings.startFrom !== undefined && cursor.startFrom !== settings.startFrom) return undefined;
	return cursor;
}

/**
 * First activation: from "Start From" when given; else from the newest record the API holds now (the server's
 * own clock, so a skewed n8n clock cannot skip or repeat records), or from this moment when the view is empty.
 */
async function startingCursor(ctx: IPollFunctions, source: ViewSource, settings: TriggerSettings): Promise<Cursor> {
	if (settings.startFrom) return { view: settings.view, time: settings.startFrom, key: null, startFrom: settings.startFrom };
	const columns = cursorColumnsOf(source.view);
	const [newest] = await fetchNewest(ctx, source, [], [columns.time, ...columns.key], 1);
	const cursor = newest ? cursorAfter(newest, columns, settings.view) : undefined;
	return cursor ?? { view: settings.view, time: new Date().toISOString(), key: null };
}

async function latestForManualRun(
	ctx: IPollFunctions,
	source: ViewSource,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][]> {
	const fields = selectedColumns(source.view, settings);
	const rows = await fetchNewest(ctx, source, userFilters(source.view, settings), fields, 1);
	if (rows.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No records match the current filters', {
			description: 'Check "Status Names or IDs" and "Content Partner Names or IDs", or pick another view.',
		});
	}
	return [emit(ctx, source, settings, rows)];
}

function emit(ctx: IPollFunctions, source: ViewSource, settings: TriggerSettings, rows: IDataObject[]): INodeExecutionData[] {
	let records: IDataObject[];
	try {
		records = rows.map((row) => shapeRecord(source.view, row, { keepRawJson: settings.keepRawJson }));
	} catch (error) {
		// A list column holding neither a JSON array nor a Postgres array literal.
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
	if (settings.emitAs === 'oneItem') {
		return [{ json: { view: source.view.rootField, count: records.length, records } }];
	}
	return records.map((json) => ({ json }));
}
