import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	DEFAULT_ACTION_CONCURRENCY,
	DEFAULT_MAX_RETRIES,
	MAX_CONCURRENT_REQUESTS,
	MAX_RETRIES,
} from './limits';

type ShowConditions = Record<string, Array<string | number | boolean>>;

/** displayOptions that show a parameter for these resources and operations (and any further conditions). */
export function showFor(
	resources: string[],
	operations: string[],
	extra: ShowConditions = {},
): INodeProperties['displayOptions'] {
	return { show: { resource: resources, operation: operations, ...extra } };
}

/** The `operation` parameter shown under these conditions (a resource, and a node version where it differs). */
export function operationSelector(
	show: ShowConditions,
	options: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options,
		default: defaultOperation,
	};
}

/** The Max Concurrent Requests option, the same everywhere but for what one request asks (the description). */
export function maxConcurrencyOption(
	description: string,
	defaultValue = DEFAULT_ACTION_CONCURRENCY,
): INodeProperties {
	return {
		displayName: 'Max Concurrent Requests',
		name: 'maxConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENT_REQUESTS },
		default: defaultValue,
		description,
	};
}

/** A text parameter that starts empty, as filters are. */
export function textParameter(
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	return { displayName, name, type: 'string', default: '', description };
}

/** The "Options" collection of an operation. */
export function optionsCollection(
	displayOptions: INodeProperties['displayOptions'],
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions,
		options,
	};
}

/**
 * The Max Retries option of a node's "Options" collection, in the same words everywhere; the last sentence says what
 * follows when the retries are spent (an action node's Retry On Fail setting, a trigger's next poll).
 */
export function maxRetriesOption(afterwards: 'action' | 'poll'): INodeProperties {
	return {
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RETRIES },
		default: DEFAULT_MAX_RETRIES,
		description:
			afterwards === 'action'
				? "Retries of one request after HTTP 429, a 5xx status or a dropped connection, with backoff that honours Retry-After. The Settings tab's Retry On Fail reruns the whole node after these are spent."
				: 'Retries of one request after HTTP 429, a 5xx status or a dropped connection, with backoff that honours Retry-After. A poll that still fails is tried again at the next poll time.',
	};
}

/** The one Output choice of every node that returns records (n8n's convention for nodes usable as AI tools). */
export const OUTPUT_CHOICES = ['simplified', 'raw', 'selected'] as const;
export type OutputChoice = (typeof OUTPUT_CHOICES)[number];

/**
 * The Output parameter, in the same words and with the same default everywhere; `texts` says per node what
 * Simplified and Raw hold. Selected Fields shows the node's own `fields` list.
 */
export function outputParameter(
	displayOptions: INodeProperties['displayOptions'],
	texts: { record: string; simplified: string; raw: string },
): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		displayOptions,
		options: [
			{ name: 'Simplified', value: 'simplified', description: texts.simplified },
			{ name: 'Raw', value: 'raw', description: texts.raw },
			{
				name: 'Selected Fields',
				value: 'selected',
				description: "The fields chosen below, and the record's identifier",
			},
		],
		default: 'simplified',
		description: `Which fields of each ${texts.record} to return`,
	};
}

/**
 * The canvas subtitle "Get Many: Speech Task": the operation and resource as the parameters show them, not their
 * stored values. A chain of comparisons rather than an object literal, whose braces n8n's expression syntax reads.
 */
export function readableSubtitle(properties: INodeProperties[]): string {
	const namesOf = (parameter: string) => {
		const names = new Map<string, string>();
		for (const property of properties.filter((each) => each.name === parameter)) {
			for (const option of (property.options ?? []) as INodePropertyOptions[])
				names.set(String(option.value), option.name);
		}
		return names;
	};
	const chain = (parameter: string) =>
		`(${[...namesOf(parameter)]
			.map(
				([value, name]) =>
					`$parameter[${JSON.stringify(parameter)}] === ${JSON.stringify(value)} ? ${JSON.stringify(name)} : `,
			)
			.join('')}"")`;
	return `={{${chain('operation')} + ": " + ${chain('resource')}}}`;
}
