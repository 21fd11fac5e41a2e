import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/n8n/descriptions';
import { withArticle } from '../../shared/n8n/english';
import type { ActionRoutes } from '../../shared/n8n/router';
import { RESOURCES } from '../api/resources';
import type { OrgResourceName } from '../api/resources';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const ROUTES: ActionRoutes = {
	actions: { get, getAll },
};

/** What the operation selector says per resource (the texts also name the operations for AI agents). */
const DESCRIPTIONS: Record<OrgResourceName, { get: string; getAll: string }> = {
	contentPartner: {
		get: 'Get one content partner (an organization that archives content) by its ID (OR-...) or IRI',
		getAll: 'List content partners ordered by IRI, all of them or up to a limit',
	},
	organization: {
		get: 'Get one organization of any kind by its ID (OR-...) or IRI',
		getAll: 'Search organizations of any kind by label, type or sector, ordered by IRI',
	},
	person: {
		get: 'Get one person (staff member or account manager) by IRI',
		getAll: 'List persons, all of them or filtered by given and family name, ordered by IRI',
	},
	school: {
		get: 'Get one school (educational partner) by its school ID or IRI',
		getAll: 'List schools and educational organizations of the sector Onderwijs, ordered by IRI',
	},
};

export const operationProperties: INodeProperties[] = Object.values(RESOURCES).map((resource) =>
	operationSelector(
		{ resource: [resource.name] },
		[
			{
				name: 'Get',
				value: 'get',
				action: `Get ${withArticle(resource.singular)}`,
				description: DESCRIPTIONS[resource.name].get,
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: `Get many ${resource.plural}`,
				description: DESCRIPTIONS[resource.name].getAll,
			},
		],
		'getAll',
	),
);
