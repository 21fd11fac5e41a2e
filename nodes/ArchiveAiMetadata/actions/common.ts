import type { INodeProperties } from 'n8n-workflow';

import {
	maxConcurrencyOption,
	maxRetriesOption,
	optionsCollection,
	outputParameter,
	showFor,
} from '../../shared/n8n/descriptions';
import { labelOf } from '../../shared/n8n/english';
import { AI_VIEW_KEYS, AI_VIEWS } from '../api/views';
import type { AiViewDefinition } from '../api/views';

/** Resource values of the views that support an operation, for displayOptions. */
export function resourcesWhere(predicate: (view: AiViewDefinition) => boolean): string[] {
	return AI_VIEW_KEYS.map((key) => AI_VIEWS[key])
		.filter(predicate)
		.map((view) => view.resource);
}

export const DEFAULT_PAGE_SIZE = 1000;

export const ALL_VIEW_RESOURCES = resourcesWhere(() => true);
export const RESOURCES_WITH_PID = resourcesWhere((view) => view.pidLookup);
export const RESOURCES_WITH_FILES = resourcesWhere((view) => view.files.length > 0);

export { optionsCollection, showFor };

/** A view's Output parameter: its Simplified description names exactly the columns Simplified returns. */
export function viewOutputParameter(
	view: AiViewDefinition,
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties {
	const columns = view.simplifiedColumns.map(labelOf);
	return outputParameter(displayOptions, {
		record: 'row',
		simplified: `${columns.slice(0, -1).join(', ')} and ${columns.at(-1)}`,
		raw: 'Every column of the view, raw JSON outputs parsed unless Keep Raw JSON Text is on',
	});
}

/** Output (Simplified / Raw / Selected Fields) and, for Selected Fields, the columns listed from the live schema. */
export function outputProperties(resources: string[], operations: string[]): INodeProperties[] {
	return [
		...AI_VIEW_KEYS.map((key) => AI_VIEWS[key])
			.filter((view) => resources.includes(view.resource))
			.map((view) => viewOutputParameter(view, showFor([view.resource], operations))),
		{
			displayName: 'Field Names or IDs',
			name: 'fields',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['resource'] },
			default: [],
			description:
				'Columns to return, read from the live API schema. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			displayOptions: {
				show: { resource: resources, operation: operations, output: ['selected'] },
			},
		},
	];
}

const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_PAGE_SIZE,
	description:
		'Rows requested per call (limit/offset paging). Lower it if the API times out on large pages.',
};

export const concurrencyOption = maxConcurrencyOption(
	'How many page requests may be in flight at once. More than the default helps only over long distances, and asks more of the API.',
);

export const retriesOption = maxRetriesOption('action');

export const keepRawJsonOption: INodeProperties = {
	displayName: 'Keep Raw JSON Text',
	name: 'keepRawJson',
	type: 'boolean',
	default: false,
	description:
		'Whether to return raw output columns (processed_json, transcript_json, statistics, ...) as the JSON text the API sends, to pass them on unchanged, instead of parsed objects',
};

/** The options `readOptions` reads for an operation that pages through rows, in the order they are listed. */
export const pagedReadOptions: INodeProperties[] = [
	keepRawJsonOption,
	concurrencyOption,
	retriesOption,
	pageSizeOption,
];
