import type { INodeProperties } from 'n8n-workflow';

type ShowConditions = Record<string, Array<string | number | boolean>>;

/** displayOptions that show a parameter for these resources and operations (and any further conditions). */
export function showFor(
	resources: string[],
	operations: string[],
	extra: ShowConditions = {},
): INodeProperties['displayOptions'] {
	return { show: { resource: resources, operation: operations, ...extra } };
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
