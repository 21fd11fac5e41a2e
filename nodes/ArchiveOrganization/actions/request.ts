import type { IDataObject } from 'n8n-workflow';

import { flattenOrganization } from '../api/flatten';
import type { OutputSettings } from '../api/resources';

/** The API answers `[null]` for an unknown iri: entries that are not objects are no results. */
export function presentRows(rows: unknown[]): IDataObject[] {
	return rows.filter((row): row is IDataObject => typeof row === 'object' && row !== null);
}

export function shapeRows(rows: IDataObject[], output: OutputSettings): IDataObject[] {
	const fillKnown = output.output !== 'selected';
	return output.flatten ? rows.map((row) => flattenOrganization(row, fillKnown)) : rows;
}

export function rowsOf(data: IDataObject, rootField: string): unknown[] {
	const rows = data[rootField];
	return Array.isArray(rows) ? rows : [];
}
