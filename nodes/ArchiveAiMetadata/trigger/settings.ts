import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { dateTimeToUtc } from '../../shared/n8n/dateTime';
import { DEFAULT_TRIGGER_CONCURRENCY, MAX_CONCURRENT_REQUESTS } from '../../shared/n8n/limits';
import { parameterError, readMaxRetries, requireInteger, textOf } from '../../shared/n8n/params';
import {
	DEFAULT_LATE_ROWS_WINDOW_MINUTES,
	DEFAULT_MAX_RECORDS_PER_POLL,
	DEFAULT_PAGE_SIZE,
	DEFAULT_REEMIT_AFTER_MINUTES,
	MAX_LATE_ROWS_WINDOW_MINUTES,
	MAX_REEMIT_AFTER_MINUTES,
	TASK_VIEWS,
	TRIGGER_VIEWS,
	VIEWS_WITH_CP,
} from './description';
import { fieldSelectionOf } from '../api/documents';

/** The trigger's parameters, read and checked once per poll. */
export type TriggerSettings = ReturnType<typeof readSettings>;

/** A list parameter that may also arrive from an expression as "a, b" text or a single value. */
function textList(ctx: IPollFunctions, parameter: string, value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const entries = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(',')
			: [value];
	const texts = entries.map((entry: unknown) => {
		if (typeof entry !== 'string' && typeof entry !== 'number') {
			throw parameterError(
				ctx,
				0,
				parameter,
				`must hold text values, got ${JSON.stringify(entry)}`,
			);
		}
		return String(entry).trim();
	});
	return texts.filter((entry) => entry !== '');
}

function oneOf<T extends string>(
	ctx: IPollFunctions,
	parameter: string,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
		return value as T;
	throw parameterError(
		ctx,
		0,
		parameter,
		`must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`,
	);
}

/** "Start From" as UTC ISO text; a Date or luxon DateTime from an expression prints as ISO. */
function readStartFrom(ctx: IPollFunctions, value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const raw = value instanceof Date ? value.toISOString() : textOf(value);
	if (raw.trim() === '') return undefined;
	// Read like every date-time parameter of the package.
	const utc = dateTimeToUtc(raw, ctx.getTimezone());
	if (!utc)
		throw parameterError(
			ctx,
			0,
			'Start From',
			`must be an ISO 8601 date such as 2025-01-31T08:00:00Z, got ${JSON.stringify(raw)}`,
		);
	return utc;
}

function windowMinutes(ctx: IPollFunctions, value: unknown): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (
		typeof number !== 'number' ||
		!Number.isFinite(number) ||
		number < 0 ||
		number > MAX_LATE_ROWS_WINDOW_MINUTES
	) {
		throw parameterError(
			ctx,
			0,
			'Late Rows Window (Minutes)',
			`must be a number of minutes from 0 to ${MAX_LATE_ROWS_WINDOW_MINUTES}, got ${JSON.stringify(value)}`,
		);
	}
	return number;
}

/** Reads and checks every parameter before any request is made. */
export function readSettings(ctx: IPollFunctions) {
	const view = oneOf(ctx, 'View', ctx.getNodeParameter('view'), TRIGGER_VIEWS);
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const statuses = TASK_VIEWS.includes(view)
		? textList(ctx, 'Status Names or IDs', ctx.getNodeParameter('statuses', []))
		: [];
	return {
		view,
		// Empty: every status, or every content partner.
		statuses,
		contentPartners: VIEWS_WITH_CP.includes(view)
			? textList(ctx, 'Content Partner Names or IDs', ctx.getNodeParameter('contentPartners', []))
			: [],
		// Selected Fields are checked against the live view at poll time.
		selection: fieldSelectionOf(ctx, 0, ctx.getNodeParameter('output', 'simplified'), () =>
			textList(ctx, 'Field Names or IDs', ctx.getNodeParameter('fields', [])),
		),
		emitAs: oneOf(ctx, 'Emit As', options.emitAs ?? 'eachRecord', [
			'eachRecord',
			'oneItem',
		] as const),
		maxRecordsPerPoll: requireInteger(
			ctx,
			0,
			'Max Records per Poll',
			options.maxRecordsPerPoll ?? DEFAULT_MAX_RECORDS_PER_POLL,
		),
		startFrom: readStartFrom(ctx, options.startFrom),
		pageSize: requireInteger(ctx, 0, 'Page Size', options.pageSize ?? DEFAULT_PAGE_SIZE),
		concurrency: requireInteger(
			ctx,
			0,
			'Max Concurrent Requests',
			options.maxConcurrency ?? DEFAULT_TRIGGER_CONCURRENCY,
			{ max: MAX_CONCURRENT_REQUESTS },
		),
		maxRetries: readMaxRetries(ctx, 0, options.maxRetries),
		keepRawJson: options.keepRawJson === true,
		lateRowsWindowMinutes: windowMinutes(
			ctx,
			options.lateRowsWindow ?? DEFAULT_LATE_ROWS_WINDOW_MINUTES,
		),
		reemitAfterMinutes: requireInteger(
			ctx,
			0,
			'Re-Emit Unfinished Run After (Minutes)',
			options.reemitAfterMinutes ?? DEFAULT_REEMIT_AFTER_MINUTES,
			{ max: MAX_REEMIT_AFTER_MINUTES },
		),
	};
}
