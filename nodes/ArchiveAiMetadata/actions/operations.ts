import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { operationSelector } from '../../shared/n8n/descriptions';
import { nounOf, pluralOf, withArticle } from '../../shared/n8n/english';
import { AI_VIEWS } from '../api/views';
import type { AiViewKey } from '../api/views';

export type ViewOperation = 'count' | 'downloadFiles' | 'get' | 'getAll' | 'getByPid';

/** Operation choices of one view, worded so that a person or an AI agent picks the right one. */
function operationOption(viewKey: AiViewKey, operation: ViewOperation): INodePropertyOptions {
	const view = AI_VIEWS[viewKey];
	const singular = nounOf(view.displayName);
	const plural = pluralOf(singular);
	const id = view.idColumn === 'id' ? 'ID' : 'task ID';
	switch (operation) {
		case 'count':
			return {
				name: 'Count',
				value: 'count',
				action: `Count ${plural}`,
				description: `Count the ${plural} that match the filters, without returning them`,
			};
		case 'downloadFiles':
			return {
				name: 'Download Files',
				value: 'downloadFiles',
				action: `Download files of ${withArticle(singular)}`,
				description: `Download the transcripts or raw JSON outputs of ${withArticle(singular)} by its task ID as binary files`,
			};
		case 'get':
			return {
				name: 'Get',
				value: 'get',
				action: `Get ${withArticle(singular)}`,
				description: `Get one ${singular} by its ${id}`,
			};
		case 'getAll':
			return {
				name: 'Get Many',
				value: 'getAll',
				action: `Get many ${plural}`,
				description: `Get many ${plural}, filtered (e.g. status, content partner, PID, IDs, time range, Hasura where) and sorted`,
			};
		case 'getByPid':
			return {
				name: 'Get by PID',
				value: 'getByPid',
				action: `Get ${plural} by PID`,
				description: `Get the ${plural} of each input item's PID (fragment identifier), in a few batched requests`,
			};
	}
}

/** The `operation` parameter of one view resource. */
export function viewOperationProperty(
	viewKey: AiViewKey,
	operations: ViewOperation[],
	defaultOperation: ViewOperation,
): INodeProperties {
	return operationSelector(
		{ resource: [AI_VIEWS[viewKey].resource] },
		[...operations].sort().map((operation) => operationOption(viewKey, operation)),
		defaultOperation,
	);
}
