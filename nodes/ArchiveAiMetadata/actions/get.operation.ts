import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executePerItem } from '../../shared/n8n/executePerItem';
import { returnEmptyWhenNotFoundOption } from '../../shared/n8n/descriptions';
import { isUuid, parameterError, UUID_REGEX } from '../../shared/n8n/params';
import { fieldsFor } from '../api/documents';
import { AiSession, readRows } from '../api/viewSource';
import { shapeRecord, stableOrderBy, viewKeyOf } from '../api/views';
import type { AiViewKey, ResolvedView } from '../api/views';
import {
	outputProperties,
	keepRawJsonOption,
	optionsCollection,
	resourcesWhere,
	retriesOption,
	showFor,
} from './common';
import { idParameterOf, readGetParameters } from './parameters';

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
		retriesOption,
		returnEmptyWhenNotFoundOption('record'),
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

/** One record to look up by its identifier, for an input item. */
interface RecordLookup {
	view: ResolvedView;
	itemIndex: number;
	id: string;
	fields: string[];
	maxRetries: number;
}

/** The record with this identifier; not finding it is an error naming the identifier. */
export async function fetchRecordById(
	session: AiSession,
	lookup: RecordLookup,
): Promise<IDataObject> {
	const record = await findRecordById(session, lookup);
	if (!record) throw recordNotFound(session, lookup);
	return record;
}

function recordNotFound(
	session: AiSession,
	{ view, itemIndex, id }: RecordLookup,
): NodeOperationError {
	return new NodeOperationError(
		session.ctx.getNode(),
		`No ${view.definition.displayName.toLowerCase()} with ${view.idColumn} "${id}" was found`,
		{
			itemIndex,
			description:
				"Check the identifier, or the account's access to this record. Get can output no item instead (Return Empty Result When Not Found).",
		},
	);
}

async function findRecordById(
	session: AiSession,
	{ view, itemIndex, id, fields, maxRetries }: RecordLookup,
): Promise<IDataObject | undefined> {
	const ctx = session.ctx;
	const idColumn = view.idColumn;
	if (!idColumn) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${view.rootField} has no identifier column to look records up by`,
			{ itemIndex },
		);
	}
	const source = await session.openView(view.definition.key, maxRetries, itemIndex);
	const [record] = await readRows(
		ctx,
		source,
		itemIndex,
		{
			where: { [idColumn]: { _eq: id } },
			orderBy: stableOrderBy(view),
			fields,
			pageSize: 1,
			concurrency: 1,
			maxRows: 1,
		},
		{
			selection: 'Field Names or IDs',
			variables: { where: idParameterOf(view.definition.key).displayName },
		},
	);
	return record;
}

/** Get: one record by its identifier (task_id, or id for reference-set persons). */
export async function executeGet(
	session: AiSession,
	viewKey: AiViewKey,
): Promise<INodeExecutionData[]> {
	const ctx = session.ctx;
	return await executePerItem(ctx, async (itemIndex) => {
		const { options, id, selection } = readGetParameters(ctx, itemIndex, viewKey);
		const { view } = await session.openView(viewKey, options.maxRetries, itemIndex);
		checkRecordId(ctx, itemIndex, view, id);
		const fields = fieldsFor(ctx, itemIndex, selection, view);
		const lookup = { view, itemIndex, id, fields, maxRetries: options.maxRetries };
		const record = await findRecordById(session, lookup);
		if (record) return [shapeRecord(view, record, options)];
		if (options.returnEmptyWhenNotFound) return [];
		throw recordNotFound(session, lookup);
	});
}

export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	return await executeGet(new AiSession(this), viewKeyOf(this, resource));
}
