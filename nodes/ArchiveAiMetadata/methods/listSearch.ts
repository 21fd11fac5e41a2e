import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { isUuid } from '../../shared/n8n/params';
import { buildViewQuery, escapeLikePattern } from '../api/documents';
import { AI_VIEWS } from '../api/views';
import type { ResolvedView } from '../api/views';
import { openViewSource } from '../api/viewSource';
import { resourceViewKey } from './loadOptions';

/**
 * "From List" of Get and Download Files: the view's most recent records (newest first by its time column), named by
 * title (tasks), label (reference-set persons) or PID. Typed text searches those name columns (case-insensitive,
 * anywhere in the text); a whole UUID finds the record with that id.
 */

const PAGE_SIZE = 50;

/** Text columns worth showing and searching, in order of preference, that the live view has. */
function nameColumnsOf(view: ResolvedView): string[] {
	return ['title', 'label', 'pid'].filter(
		(column) => view.columns.includes(column) && view.columnTypes[column] === 'String',
	);
}

function toItem(view: ResolvedView, idColumn: string, row: IDataObject): INodeListSearchItems {
	const idValue = row[idColumn] as string | number;
	const id = String(idValue);
	const named = nameColumnsOf(view)
		.map((column) => row[column])
		.find((value): value is string => typeof value === 'string' && value.trim() !== '');
	const time = row[view.timeColumn];
	const when = typeof time === 'string' ? ` · ${time.slice(0, 16).replace('T', ' ')}` : '';
	return { name: `${named ?? id}${when}`, value: id };
}

function searchCondition(view: ResolvedView, idColumn: string, term: string): IDataObject {
	const columns = nameColumnsOf(view);
	if (isUuid(term) || columns.length === 0) return { [idColumn]: { _eq: term } };
	const pattern = `%${escapeLikePattern(term)}%`;
	return { _or: columns.map((column) => ({ [column]: { _ilike: pattern } })) };
}

export async function searchRecentRecords(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const key = resourceViewKey(this);
	const documentedId = key && AI_VIEWS[key].idColumn;
	if (!documentedId) return { results: [] };
	const { client, view } = await openViewSource(this, key, { maxRetries: 1 });
	const idColumn = view.idColumn ?? documentedId;

	const term = (filter ?? '').trim();
	const fields = [...new Set([idColumn, view.timeColumn, ...nameColumnsOf(view)])].filter(
		(column) => view.columns.includes(column),
	);
	const argumentsUsed = [...(term === '' ? [] : ['where']), 'order_by', 'limit', 'offset'];
	const document = buildViewQuery(view, {
		rootField: view.rootField,
		operationName: 'AiMetadataRecentRecords',
		arguments: argumentsUsed,
		fields,
	});
	let offset = Number(paginationToken ?? 0);
	if (!Number.isSafeInteger(offset) || offset < 0) offset = 0;
	const data = await client.request<Record<string, IDataObject[] | null>>({
		document,
		variables: {
			...(term === '' ? {} : { where: searchCondition(view, idColumn, term) }),
			order_by: [{ [view.timeColumn]: 'desc_nulls_last' }, { [idColumn]: 'asc' }],
			limit: PAGE_SIZE,
			offset,
		},
	});
	const rows = data[view.rootField] ?? [];
	return {
		results: rows.map((row) => toItem(view, idColumn, row)),
		paginationToken: rows.length === PAGE_SIZE ? String(offset + rows.length) : undefined,
	};
}
