import type { GraphQLSchema, DocumentNode } from 'graphql';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { GraphqlClient } from '../../shared/graphql/client';
import { flattenOrganization } from '../api/flatten';
import { buildDocument, requireRootField, selectedFieldPaths } from '../api/query';
import type { OrgResource, OutputSettings } from '../api/resources';
import { openOrganizationApi, operationName } from '../api/session';
import type { RequestSettings } from './parameters';

interface QuerySpec {
	/** The root field's arguments the document declares as variables. */
	argumentNames: string[];
	/** Checks of the parameters against the live schema, run before the fields are resolved. */
	checkSchema?: (schema: GraphQLSchema) => void;
}

/** Opens the API and builds Get Many's document from the live schema (or the documented one). */
export async function prepareQuery(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	itemIndex: number,
	request: RequestSettings,
	output: OutputSettings,
	spec: QuerySpec,
): Promise<{ client: GraphqlClient; document: DocumentNode }> {
	const { client, schema } = await openOrganizationApi(ctx, request, itemIndex);
	const root = requireRootField(ctx, schema, resource, itemIndex);
	spec.checkSchema?.(schema);
	const fields = selectedFieldPaths(ctx, root, resource, output, itemIndex);
	const document = buildDocument(
		ctx,
		schema,
		root,
		resource,
		operationName('GetMany', resource),
		spec.argumentNames,
		fields,
		itemIndex,
	);
	return { client, document };
}

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
