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
import { isFieldPath } from '../api/fieldPaths';
import { RECORD_ID_PATTERN, RECORD_IRI_PATTERN, recordParameterName, titleOf } from './common';
import { readFilters } from './filters';
import { SERVER_PAGE_CAP } from '../api/resources';
import type { LookupKey, OrgResource, OutputSettings } from '../api/resources';

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

interface GetSettings {
	lookupKey: LookupKey;
	lookupValue: string;
	whenNotFound: WhenNotFound;
}

const ID = new RegExp(RECORD_ID_PATTERN);
const IRI = new RegExp(RECORD_IRI_PATTERN);

interface GetManySettings {
	/** undefined = Return All. */
	maxRows?: number;
	filters: IDataObject;
}

function options(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return ctx.getNodeParameter('options', itemIndex, {});
}

export function readRequestSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const chosen = options(ctx, itemIndex);
	const method = String((chosen.requestMethod as string | undefined) ?? 'POST').toUpperCase();
	if (method !== 'POST' && method !== 'GET') {
		throw parameterError(
			ctx,
			itemIndex,
			'Request Method',
			`must be POST or GET, got ${JSON.stringify(chosen.requestMethod)}`,
		);
	}
	return {
		method,
		maxRetries: readMaxRetries(ctx, itemIndex, chosen.maxRetries),
		pageSize: requireInteger(ctx, itemIndex, 'Page Size', chosen.pageSize ?? SERVER_PAGE_CAP, {
			max: SERVER_PAGE_CAP,
		}),
		concurrency: readMaxConcurrency(ctx, itemIndex, chosen.maxConcurrency),
	};
}

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
	const malformed = fields.filter((field) => !isFieldPath(field));
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

export function readOutputSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: OrgResource,
): OutputSettings {
	const output = outputChoiceOf(
		ctx,
		itemIndex,
		ctx.getNodeParameter('output', itemIndex, 'simplified'),
	);
	return {
		output,
		customFields: output === 'selected' ? readCustomFields(ctx, itemIndex) : [],
		flatten: resource.hasSites && options(ctx, itemIndex).flatten === true,
	};
}

export function readGetSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: OrgResource,
): GetSettings {
	const displayName = titleOf(resource);
	const { mode, value: rawValue } = locatorOf(
		ctx.getNodeParameter(recordParameterName(resource), itemIndex, {}),
	);
	if (
		rawValue !== undefined &&
		rawValue !== null &&
		typeof rawValue !== 'string' &&
		typeof rawValue !== 'number'
	) {
		throw parameterError(
			ctx,
			itemIndex,
			displayName,
			`must be text, got ${JSON.stringify(rawValue ?? null)}`,
		);
	}
	const value = String(rawValue ?? '').trim();
	if (value === '') {
		throw parameterError(
			ctx,
			itemIndex,
			displayName,
			`is empty: pick the ${resource.singular} from the list, or give its ${resource.lookupKeys.includes('id') ? 'ID or IRI' : 'IRI'}`,
		);
	}
	const looksLikeIri = IRI.test(value);
	// From List holds the IRI; text from an expression or an AI agent is an IRI when it looks like one.
	const lookupKey: LookupKey = mode === 'id' || (mode === 'auto' && !looksLikeIri) ? 'id' : 'iri';
	if (lookupKey === 'iri' && !looksLikeIri) {
		throw parameterError(
			ctx,
			itemIndex,
			displayName,
			`is not an IRI: ${JSON.stringify(value)}`,
			`An IRI is the ${resource.singular}'s http(s) URI, e.g. https://data.example.org/id/${resource.name.toLowerCase()}/...`,
		);
	}
	if (lookupKey === 'id') {
		if (!resource.lookupKeys.includes('id')) {
			throw parameterError(
				ctx,
				itemIndex,
				displayName,
				`is not an IRI: ${JSON.stringify(value)}`,
				`A ${resource.singular} is looked up by IRI only, its http(s) URI`,
			);
		}
		if (!ID.test(value)) {
			throw parameterError(
				ctx,
				itemIndex,
				displayName,
				`is not a valid ID: ${JSON.stringify(value)}`,
				'An ID holds letters, digits, ".", "_", ":" or "-" and no spaces, e.g. OR-abc1234',
			);
		}
	}
	return {
		lookupKey,
		lookupValue: value,
		whenNotFound: readWhenNotFound(options(ctx, itemIndex)),
	};
}

export function readGetManySettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: OrgResource,
): GetManySettings {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false);
	const maxRows = returnAll
		? undefined
		: requireInteger(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50), {
				max: MAX_GRAPHQL_INT,
			});
	const filters = readFilters(ctx, itemIndex, resource);
	return { maxRows, filters };
}
