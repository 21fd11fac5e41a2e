import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executeGrouped } from '../../shared/n8n/executeGrouped';
import type { GroupResults } from '../../shared/n8n/executeGrouped';
import { markFound, NotFoundOutputs, whenNotFoundOption } from '../../shared/n8n/notFound';
import type { NotFoundKey } from '../../shared/n8n/notFound';
import { nounOf } from '../../shared/n8n/english';
import { isUuid, parameterError, UUID_REGEX } from '../../shared/n8n/params';
import { fieldsFor } from '../api/documents';
import { chunk, mapWithConcurrency } from '../../shared/concurrency';
import { AiSession, readRows } from '../api/viewSource';
import type { ViewSource } from '../api/viewSource';
import { shapeRecord, stableOrderBy, viewKeyOf } from '../api/views';
import type { AiViewKey, ResolvedView } from '../api/views';
import {
	concurrencyOption,
	outputProperties,
	keepRawJsonOption,
	optionsCollection,
	resourcesWhere,
	retriesOption,
	showFor,
} from './common';
import { idParameterOf, readGetParameters } from './parameters';

/** Identifiers per request: 500 UUIDs are about 20 KB of variables, and 1,000 items take 2 requests. */
const IDS_PER_REQUEST = 500;

/** Max Concurrent Requests of Get and Download Files: their look-up batches in flight (as in Organization's Get). */
export const lookupConcurrencyOption: INodeProperties = {
	...concurrencyOption,
	description: `How many requests to send at the same time; each asks for up to ${IDS_PER_REQUEST} distinct IDs of the input items. Lower it if the API limits concurrent requests.`,
};

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

/** Download Files of a task that does not exist: an error naming the task (there is no record to download from). */
export function recordNotFound(
	ctx: IExecuteFunctions,
	view: ResolvedView,
	id: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`No ${nounOf(view.definition.displayName)} with ${view.idColumn} "${id}" was found`,
		{ itemIndex, description: "Check the Task ID, or the account's access to this task." },
	);
}

/** The look-up key of an item's Get, as errors, hints and not-found items name it. */
function lookupOf(view: ResolvedView, id: string): NotFoundKey {
	return { noun: nounOf(view.definition.displayName), key: view.idColumn ?? 'id', value: id };
}

/** How a record's identifier is compared: a uuid column matches any letter case, so its keys are lower-cased. */
export function recordKeyOf(view: ResolvedView, id: string): string {
	const idColumn = view.idColumn;
	return idColumn && view.columnTypes[idColumn] === 'uuid' ? id.toLowerCase() : id;
}

/** How a group's records are read: the columns, the requests in flight, and the item its errors name (its first). */
interface RecordLookup {
	fields: string[];
	concurrency: number;
	itemIndex: number;
}

/**
 * The records with these identifiers, by `recordKeyOf`: the distinct ids asked for with `<id column> _in [...]`,
 * 500 per request, `concurrency` requests in flight. An id without a record is absent from the map. The id column
 * is read to file each row and left out of it unless `fields` holds it.
 */
export async function findRecordsById(
	ctx: IExecuteFunctions,
	source: ViewSource,
	ids: string[],
	{ fields, concurrency, itemIndex }: RecordLookup,
): Promise<Map<string, IDataObject>> {
	const { view } = source;
	const idColumn = view.idColumn;
	if (!idColumn) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${view.rootField} has no identifier column to look records up by`,
			{ itemIndex },
		);
	}
	const distinct = [...new Set(ids.map((id) => recordKeyOf(view, id)))];
	const selected = fields.includes(idColumn) ? fields : [...fields, idColumn];
	const batches = await mapWithConcurrency(
		chunk(distinct, IDS_PER_REQUEST),
		concurrency,
		async (batch) =>
			await readRows(
				ctx,
				source,
				itemIndex,
				{
					where: { [idColumn]: { _in: batch } },
					orderBy: stableOrderBy(view),
					fields: selected,
					// One request when every id has a record; a server that caps rows is still paged through.
					pageSize: batch.length,
					concurrency: 1,
					maxRows: batch.length,
				},
				{
					selection: 'Field Names or IDs',
					variables: { where: idParameterOf(view.definition.key).displayName },
				},
			),
	);
	const records = new Map<string, IDataObject>();
	for (const row of batches.flat()) {
		const id = row[idColumn] as string | number;
		const key = recordKeyOf(view, String(id));
		if (!fields.includes(idColumn)) delete row[idColumn];
		records.set(key, row);
	}
	return records;
}

type GetParameters = ReturnType<typeof readGetParameters>;

/** Items that ask alike (connection, requests in flight and columns) are looked up together. */
function lookupKeyOf({ options, selection }: GetParameters): string {
	return JSON.stringify([options.maxRetries, options.concurrency, selection]);
}

/**
 * Get: records by their identifiers (task_id, or id for reference-set persons), looked up together for all input
 * items; each item gets its own record, or no item / an error when there is none.
 */
async function executeGet(session: AiSession, viewKey: AiViewKey): Promise<INodeExecutionData[]> {
	const ctx = session.ctx;
	return await executeGrouped(ctx, {
		read: (itemIndex) => readGetParameters(ctx, itemIndex, viewKey),
		groupKey: lookupKeyOf,
		run: async (items) => {
			const [{ itemIndex: first, parameters }] = items;
			const { options, selection } = parameters;
			const source = await session.openView(viewKey, options.maxRetries, first);
			const { view } = source;
			const fields = fieldsFor(ctx, first, selection, view);
			const results: GroupResults = new Map();
			const valid = items.filter(({ itemIndex, parameters: { id } }) => {
				try {
					checkRecordId(ctx, itemIndex, view, id);
					return true;
				} catch (error) {
					results.set(itemIndex, error as Error);
					return false;
				}
			});
			const records = await findRecordsById(
				ctx,
				source,
				valid.map((item) => item.parameters.id),
				{ fields, concurrency: options.concurrency, itemIndex: first },
			);
			const notFound = new NotFoundOutputs(ctx);
			for (const { itemIndex, parameters: item } of valid) {
				const { whenNotFound } = item.options;
				const record = records.get(recordKeyOf(view, item.id));
				if (record) {
					results.set(itemIndex, [
						markFound(shapeRecord(view, record, item.options), whenNotFound),
					]);
					continue;
				}
				results.set(itemIndex, notFound.of(whenNotFound, lookupOf(view, item.id), itemIndex));
			}
			notFound.hint();
			return results;
		},
	});
}

/** The operation's entry point: the router calls it by operation name (ROUTES, shared/n8n/router.ts). @public */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	return await executeGet(new AiSession(this), viewKeyOf(this, resource));
}
