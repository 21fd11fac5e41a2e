import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { buildRootFieldQuery } from '../../shared/graphql/documents';
import { rootFieldOf } from '../api/fieldPaths';
import { currentResource, SERVER_PAGE_CAP } from '../api/resources';
import type { OrgResource } from '../api/resources';
import { editorClient, editorSchema } from '../api/session';

/**
 * "From List" of Organization Get: records named by label (persons by name), each holding its IRI. Organizations
 * are searched by the API's own `label` argument (a case-insensitive substring match); the other queries have no
 * label argument, so their pages are read in IRI order and matched here, a few pages per call.
 */

/** Rows per request when the server filters. */
const SEARCH_PAGE_SIZE = 100;
/** Pages read per call when matching here: the list keeps loading on scroll from where this stopped. */
const SCAN_PAGES_PER_CALL = 4;
/** Enough matches for one screen of the dropdown; scrolling asks for more. */
const ENOUGH_MATCHES = 50;

function nameOf(resource: OrgResource, row: IDataObject): string {
	const iri = row.iri as string;
	if (resource.name === 'person') {
		const name = [row.given_name, row.family_name].filter((part) => typeof part === 'string');
		return name.length > 0 ? name.join(' ') : String(iri);
	}
	return typeof row.label === 'string' && row.label !== '' ? row.label : String(iri);
}

function toItem(resource: OrgResource, row: IDataObject): INodeListSearchItems {
	const name = nameOf(resource, row);
	const id = typeof row.id === 'string' ? row.id : undefined;
	const iri = row.iri as string;
	return {
		name: id && id !== name ? `${name} (${id})` : name,
		value: String(iri),
		url: String(iri),
	};
}

export async function searchRecords(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const resource = currentResource(this);
	const client = await editorClient(this);
	const root = rootFieldOf(await editorSchema(this, client), resource.rootField);
	if (!root) return { results: [] };

	const wanted =
		resource.name === 'person' ? ['iri', 'given_name', 'family_name'] : ['iri', 'id', 'label'];
	const term = (filter ?? '').trim();
	const serverFilters =
		term !== '' && root.argumentTypes.has('label') && resource.name !== 'person';
	const argumentNames = [...(serverFilters ? ['label'] : []), 'offset', 'limit'].filter((name) =>
		root.argumentTypes.has(name),
	);
	const document = buildRootFieldQuery({
		operationName: 'SearchRecords',
		rootField: resource.rootField,
		arguments: argumentNames.map((name) => ({
			name,
			type: root.argumentTypes.get(name) as string,
		})),
		fields: wanted.filter((field) => field in root.type.getFields()),
	});

	// Without a term or with the server's filter, one page as the server gives it; else pages matched here.
	const scan = term !== '' && !serverFilters;
	const limit = scan ? SERVER_PAGE_CAP : SEARCH_PAGE_SIZE;
	const needle = term.toLowerCase();
	const results: INodeListSearchItems[] = [];
	let next: number | undefined = Number(paginationToken ?? 0);
	if (!Number.isSafeInteger(next) || next < 0) next = 0;
	for (let pages = 0; pages < (scan ? SCAN_PAGES_PER_CALL : 1) && next !== undefined; pages++) {
		const variables: IDataObject = {
			...(serverFilters ? { label: term } : {}),
			offset: next,
			limit,
		};
		const list: unknown = (await client.request<IDataObject>({ document, variables }))[
			resource.rootField
		];
		const rows = (Array.isArray(list) ? list : []).filter(
			(row): row is IDataObject => typeof row === 'object' && row !== null && 'iri' in row,
		);
		for (const row of rows) {
			const searched = `${nameOf(resource, row)} ${typeof row.id === 'string' ? row.id : ''}`;
			if (!scan || searched.toLowerCase().includes(needle)) results.push(toItem(resource, row));
		}
		next = Array.isArray(list) && list.length >= limit ? next + list.length : undefined;
		if (results.length >= ENOUGH_MATCHES) break;
	}
	return { results, paginationToken: next === undefined ? undefined : String(next) };
}
