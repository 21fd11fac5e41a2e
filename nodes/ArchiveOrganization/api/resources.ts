import type { ILoadOptionsFunctions, INode } from 'n8n-workflow';

import type { GraphqlService } from '../../shared/graphql/client';
import { nounOf, pluralOf } from '../../shared/n8n/english';
import { parameterError } from '../../shared/n8n/params';

export const ORGANIZATION_SERVICE: GraphqlService = {
	credentialType: 'archiveOrganizationApi',
	serviceName: 'Organization API',
	endpointProperty: 'apiUrl',
};

/** The real service returns at most 500 rows per call for organizations, content partners and schools. */
export const SERVER_PAGE_CAP = 500;

export type OrgResourceName = 'contentPartner' | 'organization' | 'school' | 'person';
export type LookupKey = 'id' | 'iri';
/** The presets of Output: Simplified and Raw (Selected Fields lists its own paths). */
type OutputPreset = 'simplified' | 'raw';

export interface RequestSettings {
	method: 'POST' | 'GET';
	maxRetries: number;
	pageSize: number;
	concurrency: number;
}

export interface OutputSettings {
	output: OutputPreset | 'selected';
	/** The selected field paths; empty for presets. */
	customFields: string[];
	flatten: boolean;
}

/** What both operations read from an item before any request: how to ask, and what to return. */
export interface Settings {
	request: RequestSettings;
	output: OutputSettings;
}

export interface OrgResource {
	name: OrgResourceName;
	/** Root query field in the documented schema. */
	rootField: string;
	/** As the editor shows it, e.g. "Content Partner". */
	title: string;
	singular: string;
	plural: string;
	lookupKeys: LookupKey[];
	/** Organization-like types have sites and contact points, so the Flatten option applies. */
	hasSites: boolean;
	/**
	 * Field paths per Output preset. `*` stands for every scalar field of that level as the live schema lists it,
	 * so fields a server lacks are skipped and fields it adds (e.g. `iiif`) come along.
	 */
	presets: Record<OutputPreset, string[]>;
}

const ORGANIZATION_CONTACT = [
	'*',
	'contact_point.*',
	'primary_site.*',
	'primary_site.address.*',
	'sites.*',
	'sites.address.*',
];

/** The fields of an organization's units, each unit with every object it has, one level deep. */
const UNIT_FIELDS = [
	'units.*',
	'units.unit_of.*',
	'units.logo.*',
	'units.account_manager.*',
	'units.classification.*',
	'units.units.*',
	'units.contact_point.*',
	'units.primary_site.*',
	'units.primary_site.address.*',
	'units.sites.*',
	'units.sites.address.*',
	'units.posts.*',
	'units.posts.role.*',
];

/**
 * Every field the documented schema gives an organization, and every object it links to with its plain fields and
 * its own links. Two lists stay references: the account manager's other organizations (often hundreds per manager,
 * repeated on every row) come as iri, id and label; a unit's posts leave out `post_in` (the unit itself).
 */
const ORGANIZATION_FULL = [
	...ORGANIZATION_CONTACT,
	'logo.*',
	'account_manager.*',
	'account_manager.holds.*',
	'account_manager.holds.role.*',
	'account_manager.holds.post_in.*',
	'account_manager.account_manager_of.iri',
	'account_manager.account_manager_of.id',
	'account_manager.account_manager_of.label',
	'classification.*',
	'classification.broader.*',
	'classification.narrower.*',
	...UNIT_FIELDS,
	'posts.*',
	'posts.role.*',
	'posts.post_in.*',
];

/** Simplified: the plain fields (Flatten adds the address and contact columns). */
const ORGANIZATION_PRESETS: Record<OutputPreset, string[]> = {
	simplified: ['*'],
	raw: ORGANIZATION_FULL,
};

/** Simplified: the plain fields, and each post held as its role and organization. */
const PERSON_PRESETS: Record<OutputPreset, string[]> = {
	simplified: ['*', 'holds.role.label', 'holds.post_in.id', 'holds.post_in.label'],
	raw: [
		'*',
		'holds.*',
		'holds.role.*',
		'holds.role.broader.*',
		'holds.role.narrower.*',
		'holds.post_in.*',
		'account_manager_of.*',
	],
};

function resource(name: OrgResourceName, rootField: string, title: string): OrgResource {
	const hasSites = name !== 'person';
	return {
		name,
		rootField,
		title,
		singular: nounOf(title),
		plural: pluralOf(nounOf(title)),
		// Persons are looked up by IRI only.
		lookupKeys: hasSites ? ['id', 'iri'] : ['iri'],
		hasSites,
		presets: hasSites ? ORGANIZATION_PRESETS : PERSON_PRESETS,
	};
}

export const RESOURCES: Record<OrgResourceName, OrgResource> = {
	contentPartner: resource('contentPartner', 'contentpartners', 'Content Partner'),
	organization: resource('organization', 'organizations', 'Organization'),
	school: resource('school', 'schools', 'School'),
	person: resource('person', 'persons', 'Person'),
};

export function keyNames(resource: OrgResource): string {
	return resource.lookupKeys.map((key) => key.toUpperCase()).join(' or ');
}

function isOrgResourceName(value: unknown): value is OrgResourceName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RESOURCES, value);
}

/** The resource the editor's current parameters name; Organization until one is chosen. */
export function currentResource(ctx: ILoadOptionsFunctions): OrgResource {
	const name = ctx.getCurrentNodeParameter('resource');
	return RESOURCES[isOrgResourceName(name) ? name : 'organization'];
}

/** The resource a node parameter names; anything else is an error before any request. */
export function resourceNamed(ctx: { getNode(): INode }, value: string): OrgResource {
	if (!isOrgResourceName(value)) {
		throw parameterError(ctx, 0, 'Resource', `unknown resource ${JSON.stringify(value)}`);
	}
	return RESOURCES[value];
}
