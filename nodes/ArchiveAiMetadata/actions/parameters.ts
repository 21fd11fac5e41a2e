import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	locatorOf,
	parameterError,
	readMaxConcurrency,
	readMaxRetries,
	requireInteger,
	requireText,
	splitList,
} from '../../shared/n8n/params';
import { DEFAULT_MAX_FILE_SIZE_MIB, MIB } from '../api/download';
import { fieldSelectionOf } from '../api/documents';
import type { FieldSelection, SortRule } from '../api/documents';
import { AI_VIEWS } from '../api/views';
import type { AiViewKey } from '../api/views';
import { DEFAULT_PAGE_SIZE } from './common';
import { readFilters } from './filters';
import { readWhenNotFound } from '../../shared/n8n/notFound';
import type { WhenNotFound } from '../../shared/n8n/notFound';

/**
 * The node's parameters, read once per operation and item into typed objects, with the checks that need no
 * schema. Everything after this works from these objects; only here are node parameters read.
 */

/** The Options collection of the view operations. */
interface ReadOptions {
	pageSize: number;
	concurrency: number;
	maxRetries: number;
	keepRawJson: boolean;
	whenNotFound: WhenNotFound;
}

function readOptions(ctx: IExecuteFunctions, itemIndex: number): ReadOptions {
	const options = ctx.getNodeParameter('options', itemIndex, {});
	return {
		pageSize: requireInteger(ctx, itemIndex, 'Page Size', options.pageSize ?? DEFAULT_PAGE_SIZE),
		concurrency: readMaxConcurrency(ctx, itemIndex, options.maxConcurrency),
		maxRetries: readMaxRetries(ctx, itemIndex, options.maxRetries),
		keepRawJson: options.keepRawJson === true,
		whenNotFound: readWhenNotFound(options),
	};
}

/** Output and, for Selected Fields, its non-empty field list. */
function readFieldSelection(ctx: IExecuteFunctions, itemIndex: number): FieldSelection {
	return fieldSelectionOf(
		ctx,
		itemIndex,
		ctx.getNodeParameter('output', itemIndex, 'simplified'),
		() => splitList(ctx.getNodeParameter('fields', itemIndex, [])),
	);
}

/** Hasura's order_by values, named as the Direction list shows them (Hasura puts nulls last ascending, first descending). */
export const SORT_DIRECTION_OPTIONS = [
	{ name: 'Ascending', value: 'asc' },
	{ name: 'Descending', value: 'desc' },
	{ name: 'Ascending (Nulls First)', value: 'asc_nulls_first' },
	{ name: 'Ascending (Nulls Last)', value: 'asc_nulls_last' },
	{ name: 'Descending (Nulls First)', value: 'desc_nulls_first' },
	{ name: 'Descending (Nulls Last)', value: 'desc_nulls_last' },
];
const SORT_DIRECTIONS = SORT_DIRECTION_OPTIONS.map((option) => option.value);

/** The Sort rules: every rule has a column and a known direction. */
function readSort(ctx: IExecuteFunctions, itemIndex: number): SortRule[] {
	const sort = ctx.getNodeParameter('sort', itemIndex, {}) as {
		rules?: Array<{ column?: string; direction?: string }>;
	};
	return (sort.rules ?? []).map((rule) => {
		const column = String(rule.column ?? '').trim();
		const direction = String(rule.direction ?? 'asc');
		if (column === '')
			throw parameterError(ctx, itemIndex, 'Sort', 'every sort rule needs a column');
		if (!SORT_DIRECTIONS.includes(direction)) {
			throw parameterError(
				ctx,
				itemIndex,
				'Sort',
				`unknown direction "${direction}"; use one of ${SORT_DIRECTIONS.join(', ')}`,
			);
		}
		return { column, direction };
	});
}

interface GetManyParameters {
	options: ReadOptions;
	/** Limit; undefined with Return All. */
	maxRows?: number;
	filters: IDataObject;
	sort: SortRule[];
	selection: FieldSelection;
}

export function readGetManyParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
): GetManyParameters {
	const options = readOptions(ctx, itemIndex);
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false);
	const maxRows = returnAll
		? undefined
		: requireInteger(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50));
	return {
		options,
		maxRows,
		filters: readFilters(ctx, itemIndex),
		sort: readSort(ctx, itemIndex),
		selection: readFieldSelection(ctx, itemIndex),
	};
}

interface CountParameters {
	maxRetries: number;
	filters: IDataObject;
}

export function readCountParameters(ctx: IExecuteFunctions, itemIndex: number): CountParameters {
	return {
		maxRetries: readOptions(ctx, itemIndex).maxRetries,
		filters: readFilters(ctx, itemIndex),
	};
}

/** Get and Download Files look a record up by Task ID, or by Person ID for reference-set persons. */
export function idParameterOf(viewKey: AiViewKey): { name: string; displayName: string } {
	return AI_VIEWS[viewKey].idColumn === 'id'
		? { name: 'personId', displayName: 'Person ID' }
		: { name: 'taskId', displayName: 'Task ID' };
}

/** The record identifier from its locator (any mode); whether it must be a UUID is known once the view is. */
function readRecordId(ctx: IExecuteFunctions, itemIndex: number, viewKey: AiViewKey): string {
	const parameter = idParameterOf(viewKey);
	return requireText(
		ctx,
		itemIndex,
		parameter.displayName,
		locatorOf(ctx.getNodeParameter(parameter.name, itemIndex, '')).value,
	);
}

interface GetParameters {
	options: ReadOptions;
	id: string;
	selection: FieldSelection;
}

export function readGetParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	viewKey: AiViewKey,
): GetParameters {
	return {
		options: readOptions(ctx, itemIndex),
		id: readRecordId(ctx, itemIndex, viewKey),
		selection: readFieldSelection(ctx, itemIndex),
	};
}

/**
 * Largest Max File Size accepted. n8n's default binary data mode keeps a file in memory as base64 text, which
 * cannot exceed about 384 MiB of file at all; its database mode stops at 1024 MiB. Filesystem and S3 modes take
 * larger files, but a single transcript or model output of a gigabyte is a mistake, not a file to fetch.
 */
export const MAX_FILE_SIZE_LIMIT_MIB = 1024;

export interface DownloadParameters {
	taskId: string;
	/** The chosen file columns; none means every file the task has. */
	files: string[];
	prefix: string;
	maxRetries: number;
	/** Look-up batches in flight. */
	concurrency: number;
	maxBytes: number;
}

export function readDownloadParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	viewKey: AiViewKey,
): DownloadParameters {
	const options = ctx.getNodeParameter('options', itemIndex, {});
	return {
		taskId: readRecordId(ctx, itemIndex, viewKey),
		files: splitList(ctx.getNodeParameter('files', itemIndex, [])),
		prefix: String((options.binaryPropertyPrefix as string | undefined) ?? '').trim(),
		maxRetries: readMaxRetries(ctx, itemIndex, options.maxRetries),
		concurrency: readMaxConcurrency(ctx, itemIndex, options.maxConcurrency),
		maxBytes: readMaxFileSize(ctx, itemIndex, options.maxFileSizeMiB),
	};
}

function readMaxFileSize(ctx: IExecuteFunctions, itemIndex: number, value: unknown): number {
	const mib = Number(value ?? DEFAULT_MAX_FILE_SIZE_MIB);
	if (!Number.isFinite(mib) || mib <= 0 || mib > MAX_FILE_SIZE_LIMIT_MIB) {
		throw parameterError(
			ctx,
			itemIndex,
			'Max File Size (MiB)',
			`must be a number above 0 and at most ${MAX_FILE_SIZE_LIMIT_MIB}, got ${JSON.stringify(value)}`,
		);
	}
	return Math.floor(mib * MIB);
}

// 500 PIDs keep a request small (a few KB of variables) and 1,000 input items at 2 batches: 7 requests with paging.
export const DEFAULT_PID_BATCH_SIZE = 500;
export const MAX_PID_BATCH_SIZE = 5000;
export interface PidLookupParameters extends ReadOptions {
	selection: FieldSelection;
	batchSize: number;
	/** The Filters collection, checked locally; turned into a condition once the view's live names are known. */
	filters: IDataObject;
}

/** What shapes Get by PID's query for an item; items that agree on all of it are looked up together. */
export function readPidLookupParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
): PidLookupParameters {
	const options = ctx.getNodeParameter('options', itemIndex, {});
	return {
		...readOptions(ctx, itemIndex),
		batchSize: requireInteger(
			ctx,
			itemIndex,
			'Batch Size',
			options.batchSize ?? DEFAULT_PID_BATCH_SIZE,
			{ max: MAX_PID_BATCH_SIZE },
		),
		filters: readFilters(ctx, itemIndex),
		selection: readFieldSelection(ctx, itemIndex),
	};
}
