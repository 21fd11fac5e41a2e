import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { operationSelector } from '../../shared/n8n/descriptions';
import { nounOf, pluralOf, withArticle } from '../../shared/n8n/english';
import type { ActionRoutes } from '../../shared/n8n/router';
import { AI_VIEW_KEYS, AI_VIEWS } from '../api/views';
import type { AiViewDefinition } from '../api/views';
import * as count from './count.operation';
import * as customQuery from './customQuery.operation';
import * as downloadFiles from './downloadFiles.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getByPid from './getByPid.operation';

export const ROUTES: ActionRoutes = {
	actions: { count, downloadFiles, execute: customQuery, get, getAll, getByPid },
};

/** A view's operations, worded so that a person or an AI agent picks the right one; Get Many is the default. */
function viewOperationProperty(view: AiViewDefinition): INodeProperties {
	const singular = nounOf(view.displayName);
	const plural = pluralOf(singular);
	const id = view.idColumn === 'id' ? 'ID' : 'task ID';
	const offered: Record<string, boolean> = {
		downloadFiles: view.files.length > 0,
		get: view.idColumn !== undefined,
		getByPid: view.pidLookup,
	};
	const options: INodePropertyOptions[] = [
		{
			name: 'Count',
			value: 'count',
			action: `Count ${plural}`,
			description: `Count the ${plural} that match the filters, without returning them`,
		},
		{
			name: 'Download Files',
			value: 'downloadFiles',
			action: `Download files of ${withArticle(singular)}`,
			description: `Download the transcripts or raw JSON outputs of ${withArticle(singular)} by its task ID as binary files`,
		},
		{
			name: 'Get',
			value: 'get',
			action: `Get ${withArticle(singular)}`,
			description: `Get one ${singular} by its ${id}`,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: `Get many ${plural}`,
			description: `Get many ${plural}, filtered (e.g. status, content partner, PID, IDs, time range, Hasura where) and sorted`,
		},
		{
			name: 'Get by PID',
			value: 'getByPid',
			action: `Get ${plural} by PID`,
			description: `Get the ${plural} of each input item's PID (fragment identifier), in a few batched requests`,
		},
	];
	return operationSelector(
		{ resource: [view.resource] },
		options.filter((option) => offered[option.value as string] ?? true),
		'getAll',
	);
}

export const operationProperties: INodeProperties[] = [
	...AI_VIEW_KEYS.map((key) => viewOperationProperty(AI_VIEWS[key])),
	operationSelector(
		{ resource: ['customQuery'] },
		[
			{
				name: 'Execute',
				value: 'execute',
				action: 'Run a custom query',
				description:
					'Run any read-only GraphQL query with variables against the AI metadata API, for needs the other operations do not cover',
			},
		],
		'execute',
	),
];

export const operationParameters: INodeProperties[] = [
	customQuery,
	get,
	getAll,
	getByPid,
	count,
	downloadFiles,
].flatMap((action) => action.description);
