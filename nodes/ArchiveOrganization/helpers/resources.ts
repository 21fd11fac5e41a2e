import type { GraphqlService } from '../../shared/transport';

export const ORGANIZATION_SERVICE: GraphqlService = {
	credentialType: 'archiveOrganizationApi',
	serviceName: 'Organization API',
	endpointProperty: 'apiUrl',
};

/** The real service returns at most 500 rows per call for organizations, content partners and schools. */
export const SERVER_PAGE_CAP = 500;

export type OrgResourceName = 'contentPartner' | 'organization' | 'school' | 'person';
export type LookupKey = 'id' | 'iri';
export type OutputDetail = 'basic' | 'contact' | 'full';

/** A Get Many filter: the node parameter inside "Filters" and the query argument it becomes. */
export interface FilterArgument {
	parameter: string;
	displayName: string;
	argument: string;
}

export interface OrgResource {
	name: OrgResourceName;
	/** Root query field of seed 002. */
	rootField: string;
	singular: string;
	plural: string;
	lookupKeys: LookupKey[];
	filters: FilterArgument[];
	/** Organization-like types have sites and contact points, so the Flatten option applies. */
	hasSites: boolean;
	/**
	 * Field paths per output detail. `*` stands for every scalar field of that level as the live schema lists it,
	 * so fields a server lacks are skipped and fields it adds (e.g. `iiif`) come along.
	 */
	presets: Record<OutputDetail, string[]>;
}

const ORGANIZATION_CONTACT = [
	'*',
	'contact_point.*',
	'primary_site.iri',
	'primary_site.address.*',
	'sites.iri',
	'sites.address.*',
];

const ORGANIZATION_PRESETS: Record<OutputDetail, string[]> = {
	basic: ['*'],
	contact: ORGANIZATION_CONTACT,
	full: [
		...ORGANIZATION_CONTACT,
		'logo.*',
		'account_manager.*',
		'classification.*',
		'classification.broader.*',
		'classification.narrower.*',
		'units.*',
		'posts.*',
		'posts.role.*',
		'posts.post_in.iri',
		'posts.post_in.id',
		'posts.post_in.label',
	],
};

const PERSON_PRESETS: Record<OutputDetail, string[]> = {
	basic: ['*'],
	contact: ['*', 'holds.*', 'holds.role.*', 'holds.post_in.iri', 'holds.post_in.id', 'holds.post_in.label'],
	full: [
		'*',
		'holds.*',
		'holds.role.*',
		'holds.role.broader.*',
		'holds.post_in.*',
		'account_manager_of.*',
	],
};

export const RESOURCES: Record<OrgResourceName, OrgResource> = {
	contentPartner: {
		name: 'contentPartner',
		rootField: 'contentpartners',
		singular: 'content partner',
		plural: 'content partners',
		lookupKeys: ['id', 'iri'],
		filters: [],
		hasSites: true,
		presets: ORGANIZATION_PRESETS,
	},
	organization: {
		name: 'organization',
		rootField: 'organizations',
		singular: 'organization',
		plural: 'organizations',
		lookupKeys: ['id', 'iri'],
		filters: [
			{ parameter: 'label', displayName: 'Label Contains', argument: 'label' },
			{ parameter: 'sector', displayName: 'Sector', argument: 'sector' },
			{ parameter: 'type', displayName: 'Type', argument: 'type' },
		],
		hasSites: true,
		presets: ORGANIZATION_PRESETS,
	},
	school: {
		name: 'school',
		rootField: 'schools',
		singular: 'school',
		plural: 'schools',
		lookupKeys: ['id', 'iri'],
		filters: [],
		hasSites: true,
		presets: ORGANIZATION_PRESETS,
	},
	person: {
		name: 'person',
		rootField: 'persons',
		singular: 'person',
		plural: 'persons',
		lookupKeys: ['iri'],
		filters: [
			{ parameter: 'familyName', displayName: 'Family Name', argument: 'family_name' },
			{ parameter: 'givenName', displayName: 'Given Name', argument: 'given_name' },
		],
		hasSites: false,
		presets: PERSON_PRESETS,
	},
};

export function isOrgResourceName(value: unknown): value is OrgResourceName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RESOURCES, value);
}
