import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { loadSchema } from '../../shared/graphql/schemaCache';
import { AI_METADATA_SERVICE, createAiMetadataClient } from '../api/client';
import { resolveViewOrDocumented, viewByResource } from '../api/views';
import type { ResolvedView } from '../api/views';

/**
 * The current resource's view with live names; when the schema cannot be read (no credential yet, API down),
 * the documented names, so the lists still show something sensible.
 */
async function currentView(ctx: ILoadOptionsFunctions): Promise<ResolvedView | undefined> {
	const definition = viewByResource(String(ctx.getCurrentNodeParameter('resource') ?? ''));
	if (!definition) return undefined;
	try {
		const client = await createAiMetadataClient(ctx, { retry: { maxRetries: 1 } });
		const schema = await loadSchema(ctx, client, AI_METADATA_SERVICE.credentialType);
		return resolveViewOrDocumented(schema, definition.key);
	} catch {
		return resolveViewOrDocumented(undefined, definition.key);
	}
}

export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const view = await currentView(this);
	if (!view) return [];
	return [...view.columns].sort().map((column) => ({
		name: column,
		value: column,
		description: view.columnTypes[column] ? `Type: ${view.columnTypes[column]}` : undefined,
	}));
}

export async function getDownloadableFiles(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const view = await currentView(this);
	if (!view) return [];
	return view.files.map((file) => ({
		name: file.displayName,
		value: file.column,
		description: `Column ${file.column}`,
	}));
}
