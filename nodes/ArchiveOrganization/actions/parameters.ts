import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isFieldPath } from './fieldPaths';
import { SERVER_PAGE_CAP } from './resources';
import type { LookupKey, OrgResource, OutputDetail } from './resources';

/**
 * Everything a node parameter can get wrong is checked here, before any request (token or query) is sent.
 * Messages name the parameter as the editor shows it and say what is wrong.
 */

export interface RequestSettings {
	method: 'POST' | 'GET';
	maxRetries: number;
	pageSize: number;
	concurrency: number;
}

export interface OutputSettings {
	detail: OutputDetail | 'custom';
	/** The custom field paths; empty for presets. */
	customFields: string[];
	flatten: boolean;
}

export interface GetSettings {
	lookupKey: LookupKey;
	lookupValue: string;
	emptyWhenNotFound: boolean;
}

export interface GetManySettings {
	/** undefined = Return All. */
	maxRows?: number;
	filters: IDataObject;
}

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 10;
export const DEFAULT_MAX_RETRIES = 5;
export const MAX_RETRIES = 10;

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string, description?: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

function options(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
}

function wholeNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	value: unknown,
	min: number,
	max: number,
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
		fail(ctx, itemIndex, `"${displayName}" must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
	}
	return number;
}

export function readRequestSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const chosen = options(ctx, itemIndex);
	const method = String(chosen.requestMethod ?? 'POST').toUpperCase();
	if (method !== 'POST' && method !== 'GET') {
		fail(ctx, itemIndex, `"Request Method" must be POST or GET, got ${JSON.stringify(chosen.requestMethod)}`);
	}
	return {
		method,
		maxRetries: wholeNumber(ctx, itemIndex, 'Max Retries', chosen.maxRetries ?? DEFAULT_MAX_RETRIES, 0, MAX_RETRIES),
		pageSize: wholeNumber(ctx, itemIndex, 'Page Size', chosen.pageSize ?? SERVER_PAGE_CAP, 1, SERVER_PAGE_CAP),
		concurrency: wholeNumber(
			ctx,
			itemIndex,
			'Max Concurrent Requests',
			chosen.maxConcurrency ?? DEFAULT_CONCURRENCY,
			1,
			MAX_CONCURRENCY,
		),
	};
}

/** Custom fields arrive as a list from the editor, or as a comma-separated text from an expression. */
function readCustomFields(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const raw = ctx.getNodeParameter('fields', itemIndex, []) as unknown;
	const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
	const fields = list.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
	if (fields.length === 0) {
		fail(ctx, itemIndex, '"Fields" is empty: select at least one field, or choose a preset in "Output Detail"');
	}
	const malformed = fields.filter((field) => !isFieldPath(field));
	if (malformed.length > 0) {
		fail(
			ctx,
			itemIndex,
			`"Fields" holds ${malformed.map((field) => JSON.stringify(field)).join(', ')}, which ${malformed.length === 1 ? 'is not a field path' : 'are not field paths'}`,
			'A field path is field names joined by dots, e.g. label or primary_site.address.locality',
		);
	}
	return fields;
}

export function readOutputSettings(ctx: IExecuteFunctions, itemIndex: number, resource: OrgResource): OutputSettings {
	const detail = ctx.getNodeParameter('outputDetail', itemIndex, 'basic') as string;
	if (detail !== 'basic' && detail !== 'contact' && detail !== 'full' && detail !== 'custom') {
		fail(ctx, itemIndex, `"Output Detail" must be basic, contact, full or custom, got ${JSON.stringify(detail)}`);
	}
	return {
		detail,
		customFields: detail === 'custom' ? readCustomFields(ctx, itemIndex) : [],
		flatten: resource.hasSites && options(ctx, itemIndex).flatten === true,
	};
}

export function readGetSettings(ctx: IExecuteFunctions, itemIndex: number, resource: OrgResource): GetSettings {
	const lookupKey =
		resource.lookupKeys.length > 1 ? (ctx.getNodeParameter('lookupBy', itemIndex, 'id') as string) : 'iri';
	if (!resource.lookupKeys.includes(lookupKey as LookupKey)) {
		fail(ctx, itemIndex, `"Look Up By" must be one of ${resource.lookupKeys.join(', ')}, got ${JSON.stringify(lookupKey)}`);
	}
	const displayName = lookupKey === 'id' ? 'ID' : 'IRI';
	const value = String(ctx.getNodeParameter(lookupKey, itemIndex, '') ?? '').trim();
	if (value === '') fail(ctx, itemIndex, `"${displayName}" is empty: give the ${displayName} of the ${resource.singular} to get`);
	return {
		lookupKey: lookupKey as LookupKey,
		lookupValue: value,
		emptyWhenNotFound: options(ctx, itemIndex).returnEmptyWhenNotFound === true,
	};
}

export function readGetManySettings(ctx: IExecuteFunctions, itemIndex: number, resource: OrgResource): GetManySettings {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const maxRows = returnAll
		? undefined
		: wholeNumber(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50), 1, 2 ** 31 - 1);
	const chosen = resource.filters.length > 0 ? (ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject) : {};
	const filters: IDataObject = {};
	for (const filter of resource.filters) {
		const value = chosen[filter.parameter];
		if (value === undefined || value === null) continue;
		if (typeof value !== 'string') {
			fail(ctx, itemIndex, `Filter "${filter.displayName}" must be text, got ${JSON.stringify(value)}`);
		}
		// An empty filter field means "no filter", not "match the empty string".
		if (value.trim() !== '') filters[filter.argument] = value.trim();
	}
	return { maxRows, filters };
}
