import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { dateTimeToUtc } from './dateTime';
import {
	DEFAULT_ACTION_CONCURRENCY,
	DEFAULT_MAX_RETRIES,
	MAX_CONCURRENT_REQUESTS,
	MAX_RETRIES,
} from './limits';
import { OUTPUT_CHOICES } from './descriptions';
import type { OutputChoice } from './descriptions';

/** What reading a parameter needs from n8n: action, poll and webhook contexts all qualify. */
export interface ParameterContext {
	getNode(): INode;
	getTimezone(): string;
}

/** GraphQL `Int` is a signed 32-bit integer; limits and offsets beyond it are refused by the server. */
export const MAX_GRAPHQL_INT = 2_147_483_647;

/** Checks run before any request: each error names the parameter and says what is wrong. */
export function parameterError(
	ctx: Pick<ParameterContext, 'getNode'>,
	itemIndex: number,
	parameter: string,
	problem: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Parameter "${parameter}": ${problem}`, {
		itemIndex,
		description,
	});
}

export function requireInteger(
	ctx: ParameterContext,
	itemIndex: number,
	parameter: string,
	value: unknown,
	range: { min?: number; max?: number } = {},
): number {
	const min = range.min ?? 1;
	const max = range.max ?? MAX_GRAPHQL_INT;
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
		throw parameterError(
			ctx,
			itemIndex,
			parameter,
			`must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
		);
	}
	return number;
}

/** The Max Retries option of every node: 0 to MAX_RETRIES, DEFAULT_MAX_RETRIES when not set. */
export function readMaxRetries(ctx: ParameterContext, itemIndex: number, value: unknown): number {
	return requireInteger(ctx, itemIndex, 'Max Retries', value ?? DEFAULT_MAX_RETRIES, {
		min: 0,
		max: MAX_RETRIES,
	});
}

/** The Max Concurrent Requests option of the action nodes: 1 to MAX_CONCURRENT_REQUESTS. */
export function readMaxConcurrency(
	ctx: ParameterContext,
	itemIndex: number,
	value: unknown,
): number {
	return requireInteger(
		ctx,
		itemIndex,
		'Max Concurrent Requests',
		value ?? DEFAULT_ACTION_CONCURRENCY,
		{ max: MAX_CONCURRENT_REQUESTS },
	);
}

/** A JSON parameter as an object: accepts an object (from an expression) or JSON text; empty means `{}`. */
export function parseJsonObject(
	ctx: ParameterContext,
	itemIndex: number,
	parameter: string,
	value: unknown,
): IDataObject {
	if (value === undefined || value === null) return {};
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return {};
		try {
			parsed = JSON.parse(value) as unknown;
		} catch (error) {
			throw parameterError(
				ctx,
				itemIndex,
				parameter,
				`is not valid JSON (${(error as Error).message})`,
			);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw parameterError(
			ctx,
			itemIndex,
			parameter,
			'must be a JSON object, e.g. {"status": {"_eq": "succeeded"}}',
		);
	}
	return parsed as IDataObject;
}

/** Any value an expression gave, as text. */
export function textOf(value: unknown): string {
	return String(value);
}

/** "a, b,,c" or ['a', 'b'] -> ['a', 'b', 'c']: lists typed in a text field or produced by an expression. */
export function splitList(value: unknown, separator: string | RegExp = ','): string[] {
	const parts = Array.isArray(value)
		? value.map((entry) => String(entry))
		: textOf(value ?? '').split(separator);
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * A date/time parameter as UTC ISO text, or undefined when empty; an unreadable date is an error. Text without a
 * zone is a wall-clock time in the workflow's timezone (as the trigger's "Start From" reads it); a Date or a
 * luxon DateTime from an expression is an instant already.
 */
export function readDateTime(
	ctx: ParameterContext,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const asText =
		typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function'
			? String((value as { toISO: () => string }).toISO())
			: value instanceof Date
				? value.toISOString()
				: textOf(value);
	const utc = dateTimeToUtc(asText, ctx.getTimezone());
	if (utc === undefined) {
		throw parameterError(
			ctx,
			itemIndex,
			parameter,
			`is not an ISO 8601 date and time such as 2025-06-01T08:00:00Z: ${JSON.stringify(asText)}`,
		);
	}
	return utc;
}

/** A UUID, with or without dashes, as regex text: the editor's resource-locator validation takes a string. */
export const UUID_REGEX =
	'^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$';
const UUID_PATTERN = new RegExp(UUID_REGEX);

export function isUuid(value: string): boolean {
	return UUID_PATTERN.test(value);
}

/** A resource locator's mode and value; plain text (from an expression or an AI agent) comes back as mode `auto`. */
export function locatorOf(raw: unknown): { mode: string; value: unknown } {
	if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'value' in raw) {
		const locator = raw as { mode?: unknown; value: unknown };
		return { mode: typeof locator.mode === 'string' ? locator.mode : 'auto', value: locator.value };
	}
	return { mode: 'auto', value: raw };
}

export function requireText(
	ctx: ParameterContext,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') throw parameterError(ctx, itemIndex, parameter, 'must not be empty');
	return text;
}

/** The Output parameter's value, checked: an expression can hold anything. */
export function outputChoiceOf(
	ctx: Pick<ParameterContext, 'getNode'>,
	itemIndex: number,
	value: unknown,
): OutputChoice {
	const choice = value ?? 'simplified';
	if (typeof choice === 'string' && (OUTPUT_CHOICES as readonly string[]).includes(choice)) {
		return choice as OutputChoice;
	}
	throw parameterError(
		ctx,
		itemIndex,
		'Output',
		`must be simplified, raw or selected, got ${JSON.stringify(choice)}`,
	);
}
