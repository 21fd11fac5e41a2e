import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	locatorOf,
	MAX_GRAPHQL_INT,
	outputChoiceOf,
	parameterError,
	readMaxConcurrency,
	readMaxRetries,
	requireInteger,
	splitList,
} from '../../shared/n8n/params';
import { readWhenNotFound } from '../../shared/n8n/notFound';
import type { WhenNotFound } from '../../shared/n8n/notFound';
import { RECORD_ID_PATTERN, RECORD_IRI_PATTERN } from './common';
import { readFilters } from './filters';
import { keyNames, SERVER_PAGE_CAP } from '../api/resources';
import type { LookupKey, OrgResource, Settings } from '../api/resources';

/**
 * Each operation reads an item's parameters once, here, into one typed value: everything a parameter can get
 * wrong is checked before any request (token or query). Messages name the parameter as the editor shows it.
 */

export interface Lookup {
	lookupKey: LookupKey;
	lookupValue: string;
}

export interface GetParameters extends Settings, Lookup {
	whenNotFound: WhenNotFound;
}

export interface GetManyParameters extends Settings {
	/** undefined = Return All. */
	maxRows?: number;
	filters: IDataObject;
}

const ID = new RegExp(RECORD_ID_PATTERN);
const IRI = new RegExp(RECORD_IRI_PATTERN);
const FIELD_PATH = /^[_A-Za-z][_0-9A-Za-z]*(\.[_A-Za-z][_0-9A-Za-z]*)*$/;

/** Custom fields arrive as a list from the editor, or as a comma-separated text from an expression. */
function readCustomFields(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const raw = ctx.getNodeParameter('fields', itemIndex, []) as unknown;
	const fields = Array.isArray(raw) || typeof raw === 'string' ? splitList(raw) : [];
	if (fields.length === 0) {
		throw parameterError(
			ctx,
			itemIndex,
			'Field Names or IDs',
			'is empty: choose at least one field, or choose Simplified or Raw in "Output"',
		);
	}
	const malformed = fields.filter((field) => !FIELD_PATH.test(field));
	if (malformed.length > 0) {
		throw parameterError(
			ctx,
			itemIndex,
			'Field Names or IDs',
			`holds ${malformed.map((field) => JSON.stringify(field)).join(', ')}, which ${malformed.length === 1 ? 'is not a field path' : 'are not field paths'}`,
			'A field path is field names joined by dots, e.g. label or primary_site.address.locality',
		);
	}
	return fields;
}

function readSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: OrgResource,
	options: IDataObject,
): Settings {
	const method = String((options.requestMethod as string | undefined) ?? 'POST').toUpperCase();
	if (method !== 'POST' && method !== 'GET') {
		throw parameterError(
			ctx,
			itemIndex,
			'Request Method',
			`must be POST or GET, got ${JSON.stringify(options.requestMethod)}`,
		);
	}
	const request = {
		method,
		maxRetries: readMaxRetries(ctx, itemIndex, options.maxRetries),
		pageSize: requireInteger(ctx, itemIndex, 'Page Size', options.pageSize ?? SERVER_PAGE_CAP, {
			max: SERVER_PAGE_CAP,
		}),
		concurrency: readMaxConcurrency(ctx, itemIndex, options.maxConcurrency),
	} as const;
	const output = outputChoiceOf(
		ctx,
		itemIndex,
		ctx.getNodeParameter('output', itemIndex, 'simplified'),
	);
	const customFields = output === 'selected' ? readCustomFields(ctx, itemIndex) : [];
	return {
		request,
		output: { output, customFields, flatten: resource.hasSites && options.flatten === true },
	};
}

export function readGetParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: OrgResource,
): GetParameters {
	const options: IDataObject = ctx.getNodeParameter('options', itemIndex, {});
	const settings = readSettings(ctx, itemIndex, resource, options);
	const fail = (message: string, description?: string) =>
		parameterError(ctx, itemIndex, resource.title, message, description);
	const { mode, value: rawValue } = locatorOf(ctx.getNodeParameter(resource.name, itemIndex, {}));
	if (rawValue !== null && !['undefined', 'string', 'number'].includes(typeof rawValue)) {
		throw fail(`must be text, got ${JSON.stringify(rawValue)}`);
	}
	const value = String((rawValue as string | number | null | undefined) ?? '').trim();
	if (value === '') {
		throw fail(
			`is empty: pick the ${resource.singular} from the list, or give its ${keyNames(resource)}`,
		);
	}
	const looksLikeIri = IRI.test(value);
	// From List holds the IRI; text from an expression or an AI agent is an IRI when it looks like one.
	const lookupKey: LookupKey = mode === 'id' || (mode === 'auto' && !looksLikeIri) ? 'id' : 'iri';
	if (lookupKey === 'iri' && !looksLikeIri) {
		throw fail(
			`is not an IRI: ${JSON.stringify(value)}`,
			`An IRI is the ${resource.singular}'s http(s) URI, e.g. https://data.example.org/id/${resource.name.toLowerCase()}/...`,
		);
	}
	if (lookupKey === 'id' && !resource.lookupKeys.includes('id')) {
		throw fail(
			`is not an IRI: ${JSON.stringify(value)}`,
			`A ${resource.singular} is looked up by IRI only, its http(s) URI`,
		);
	}
	if (lookupKey === 'id' && !ID.test(value)) {
		throw fail(
			`is not a valid ID: ${JSON.stringify(value)}`,
			'An ID holds letters, digits, ".", "_", ":" or "-" and no spaces, e.g. OR-abc1234',
		);
	}
	return { ...settings, lookupKey, lookupValue: value, whenNotFound: readWhenNotFound(options) };
}

export function readGetManyParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: OrgResource,
): GetManyParameters {
	const settings = readSettings(
		ctx,
		itemIndex,
		resource,
		ctx.getNodeParameter('options', itemIndex, {}),
	);
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false);
	const maxRows = returnAll
		? undefined
		: requireInteger(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50), {
				max: MAX_GRAPHQL_INT,
			});
	return { ...settings, maxRows, filters: readFilters(ctx, itemIndex, resource) };
}
