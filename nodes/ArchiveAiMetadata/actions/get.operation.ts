import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executeGrouped } from '../../shared/n8n/executeGrouped';
import type { GroupResults } from '../../shared/n8n/executeGrouped';
import { maxConcurrencyOption } from '../../shared/n8n/descriptions';
import { whenNotFoundOption } from '../../shared/n8n/notFound';
import {
	isUuid,
	locatorOf,
	parameterError,
	requireText,
	UUID_REGEX,
} from '../../shared/n8n/params';
import { fieldsFor } from '../api/documents';
import { AiSession } from '../api/viewSource';
import type { ViewSource } from '../api/viewSource';
import { AI_VIEWS, viewKeyOf } from '../api/views';
import type { AiViewKey, ResolvedView } from '../api/views';
import {
	fileRows,
	keepRawJsonOption,
	lookupResults,
	optionsCollection,
	outputProperties,
	readFieldSelection,
	readOptions,
	readRowsWhereIn,
	resourcesWhere,
	retriesOption,
	showFor,
} from './common';

/** Identifiers per request: 500 UUIDs are about 20 KB of variables, and 1,000 items take 2 requests. */
const IDS_PER_REQUEST = 500;

/** Max Concurrent Requests of Get and Download Files: their look-up batches in flight. */
export const lookupConcurrencyOption = maxConcurrencyOption(
	`How many requests to send at the same time; each asks for up to ${IDS_PER_REQUEST} distinct IDs of the input items. Lower it if the API limits concurrent requests.`,
);

const TASK_RESOURCES = resourcesWhere((view) => view.idColumn === 'task_id');
const PERSON_RESOURCES = resourcesWhere((view) => view.idColumn === 'id');
const GET_RESOURCES = [...TASK_RESOURCES, ...PERSON_RESOURCES];

/** Task ID or Person ID: From List (the most recent records, searchable) or By ID. */
function recordLocator(
	displayName: string,
	name: string,
	description: string,
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description,
		displayOptions,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchRecentRecords', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 0b6a4d1e-3f5c-4b8a-9c2d-7e1f0a9b8c7d',
				validation: [
					{
						type: 'regex',
						properties: { regex: UUID_REGEX, errorMessage: 'Not a UUID' },
					},
				],
			},
		],
	};
}

export const description: INodeProperties[] = [
	recordLocator(
		'Task ID',
		'taskId',
		'The task to get: pick a recent one, or give its task_id (UUID)',
		showFor(TASK_RESOURCES, ['get', 'downloadFiles']),
	),
	recordLocator(
		'Person ID',
		'personId',
		'The reference-set person to get: pick a recent one, or give their ID (UUID)',
		showFor(PERSON_RESOURCES, ['get']),
	),
	...outputProperties(GET_RESOURCES, ['get']),
	optionsCollection(showFor(GET_RESOURCES, ['get']), [
		keepRawJsonOption,
		lookupConcurrencyOption,
		retriesOption,
		whenNotFoundOption('ID'),
	]),
];

function idParameterOf(viewKey: AiViewKey): { name: string; displayName: string } {
	return AI_VIEWS[viewKey].idColumn === 'id'
		? { name: 'personId', displayName: 'Person ID' }
		: { name: 'taskId', displayName: 'Task ID' };
}

/** The record identifier from its locator (any mode); whether it must be a UUID is known once the view is. */
export function readRecordId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	viewKey: AiViewKey,
): string {
	const parameter = idParameterOf(viewKey);
	return requireText(
		ctx,
		itemIndex,
		parameter.displayName,
		locatorOf(ctx.getNodeParameter(parameter.name, itemIndex, '')).value,
	);
}

/** A column of type uuid only accepts a UUID: said before the request, naming the parameter. */
export function checkRecordId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	view: ResolvedView,
	id: string,
): void {
	const idColumn = view.idColumn;
	if (idColumn && view.columnTypes[idColumn] === 'uuid' && !isUuid(id)) {
		throw parameterError(
			ctx,
			itemIndex,
			idParameterOf(view.definition.key).displayName,
			`must be a UUID, got ${JSON.stringify(id)}`,
		);
	}
}

/** How a record's identifier is compared: a uuid column matches any letter case, so its keys are lower-cased. */
export function recordKeyOf(view: ResolvedView, id: string): string {
	const idColumn = view.idColumn;
	return idColumn && view.columnTypes[idColumn] === 'uuid' ? id.toLowerCase() : id;
}

/**
 * The records with these identifiers, by `recordKeyOf`: the distinct ids asked for with `<id column> _in [...]`,
 * 500 per request, `concurrency` requests in flight; errors name item `itemIndex`. An id without a record is absent
 * from the map. The id column is read to file each row and left out of it unless `fields` holds it.
 */
export async function findRecordsById(
	ctx: IExecuteFunctions,
	source: ViewSource,
	itemIndex: number,
	ids: string[],
	fields: string[],
	concurrency: number,
): Promise<Map<string, IDataObject[]>> {
	const { view } = source;
	const idColumn = view.idColumn;
	if (!idColumn) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${view.rootField} has no identifier column to look records up by`,
			{ itemIndex },
		);
	}
	const rows = await readRowsWhereIn(ctx, source, itemIndex, {
		column: idColumn,
		values: [...new Set(ids.map((id) => recordKeyOf(view, id)))],
		batchSize: IDS_PER_REQUEST,
		concurrency,
		fields,
		whereParameter: idParameterOf(view.definition.key).displayName,
	});
	return fileRows(rows, idColumn, fields, (id) => [recordKeyOf(view, id)]);
}

/**
 * Get: records by their identifiers (task_id, or id for reference-set persons), looked up together for all input
 * items; each item gets its own record, or no item / an error when there is none. @public
 */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const session = new AiSession(this);
	const viewKey = viewKeyOf(this, resource);
	return await executeGrouped(this, {
		read: (itemIndex) => ({
			options: readOptions(this, itemIndex),
			id: readRecordId(this, itemIndex, viewKey),
			selection: readFieldSelection(this, itemIndex),
		}),
		// Items that ask alike (connection, requests in flight and columns) are looked up together.
		groupKey: ({ options, selection }) =>
			JSON.stringify([options.maxRetries, options.concurrency, selection]),
		run: async (items) => {
			const [{ itemIndex: first, parameters }] = items;
			const { options, selection } = parameters;
			const source = await session.openView(viewKey, options.maxRetries, first);
			const { view } = source;
			const fields = fieldsFor(this, first, selection, view);
			const results: GroupResults = new Map();
			const valid = items.filter(({ itemIndex, parameters: { id } }) => {
				try {
					checkRecordId(this, itemIndex, view, id);
					return true;
				} catch (error) {
					results.set(itemIndex, error as Error);
					return false;
				}
			});
			const ids = valid.map((item) => item.parameters.id);
			const records = await findRecordsById(this, source, first, ids, fields, options.concurrency);
			const found = valid.map(({ itemIndex, parameters: { options, id } }) => ({
				itemIndex,
				options,
				value: id,
				rows: records.get(recordKeyOf(view, id)) ?? [],
			}));
			return lookupResults(this, view, view.idColumn ?? 'id', found, results);
		},
	});
}
