import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/n8n/descriptions';
import type { ActionRoutes } from '../../shared/n8n/router';
import { RESOURCES } from '../api/resources';
import type { OrgResource } from '../api/resources';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const ROUTES: ActionRoutes = {
	actions: { get, getAll },
};

/** What the operation selector says per resource (the action texts also name the operations for AI agents). */
const OPERATION_TEXTS: Record<
	OrgResource['name'],
	{ get: [string, string]; getAll: [string, string] }
> = {
	contentPartner: {
		get: [
			'Get a content partner',
			'Get one content partner (an organization that archives content) by its ID (OR-...) or IRI',
		],
		getAll: [
			'Get many content partners',
			'List content partners ordered by IRI, all of them or up to a limit',
		],
	},
	organization: {
		get: ['Get an organization', 'Get one organization of any kind by its ID (OR-...) or IRI'],
		getAll: [
			'Get many organizations',
			'Search organizations of any kind by label, type or sector, ordered by IRI',
		],
	},
	person: {
		get: ['Get a person', 'Get one person (staff member or account manager) by IRI'],
		getAll: [
			'Get many persons',
			'List persons, all of them or filtered by given and family name, ordered by IRI',
		],
	},
	school: {
		get: ['Get a school', 'Get one school (educational partner) by its school ID or IRI'],
		getAll: [
			'Get many schools',
			'List schools and educational organizations of the sector Onderwijs, ordered by IRI',
		],
	},
};

/** One operation selector per resource. */
export const operationProperties: INodeProperties[] = Object.values(RESOURCES).map((resource) =>
	operationSelector(
		{ resource: [resource.name] },
		[
			{
				name: 'Get',
				value: 'get',
				action: OPERATION_TEXTS[resource.name].get[0],
				description: OPERATION_TEXTS[resource.name].get[1],
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: OPERATION_TEXTS[resource.name].getAll[0],
				description: OPERATION_TEXTS[resource.name].getAll[1],
			},
		],
		'getAll',
	),
);
