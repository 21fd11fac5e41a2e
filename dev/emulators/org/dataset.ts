/**
 * Deterministic Organization API data: organizations (content partners among them), schools, units, persons with
 * posts, sites, addresses, contact points, account managers and classification concepts. Objects reference each
 * other directly; the GraphQL layer walks them.
 */
import { FAMILY_NAMES, GIVEN_NAMES, organizationId } from '../core/shared';
import { Random } from '../core/random';

export const ORG_TYPES = [
	'ContentPartner',
	'ServiceProvider',
	'ServiceConsumer',
	'EducationalPartner',
	'DigitizationPartner',
	'ProjectPartner',
	'Other',
] as const;
export type OrgType = (typeof ORG_TYPES)[number];

export const SECTORS = [
	'Onderwijs',
	'Cultuur',
	'Overheid',
	'Regionale_Omroep',
	'Landelijke_Private_Omroep',
	'Leverancier',
	'Publieke_Omroep',
] as const;
export type Sector = (typeof SECTORS)[number];

/** `type` filters include subtypes: these types have subtypes in the emulated ontology. */
export const ORG_SUBTYPES: Partial<Record<OrgType, OrgType[]>> = {
	ServiceProvider: ['DigitizationPartner'],
	ServiceConsumer: ['EducationalPartner'],
};

/** The `sector` String field holds the label; the enum value swaps spaces for underscores. */
export function sectorLabel(sector: Sector): string {
	return sector.replace(/_/g, ' ');
}

const IRI_BASE = 'https://data.archive.test/id';

export interface Concept {
	iri: string;
	label: string;
	alt_label: string | null;
	broader: Concept[];
	narrower: Concept[];
}

export interface Logo {
	iri: string;
	url: string;
	width: number;
	height: number;
}

export interface ContactPoint {
	__typename: 'ContactPoint';
	iri: string;
	contact_type: string;
	email: string | null;
	telephone: string | null;
}

export interface PostalAddress {
	iri: string;
	contact_type: string;
	email: string | null;
	telephone: string | null;
	country: string;
	locality: string;
	region: string;
	post_office_box_number: string | null;
	postal_code: string;
	street: string;
}

export interface Site {
	iri: string;
	address: PostalAddress;
}

export interface Post {
	iri: string;
	role: Concept;
	post_in: OrgEntity[];
}

export interface Person {
	iri: string;
	given_name: string;
	family_name: string;
	telephone: string | null;
	email: string | null;
	holds: Post[];
	account_manager_of: OrgEntity[];
}

export type OrgTypename = 'Organization' | 'ContentPartner' | 'School' | 'OrganizationalUnit';

export interface OrgEntity {
	/** Concrete type, used to resolve the IOrganization interface (e.g. `unit_of`). */
	__typename: OrgTypename;
	iri: string;
	id: string;
	label: string;
	alt_label: string | null;
	mam_label: string | null;
	slug: string;
	homepage: string | null;
	description: string | null;
	logo: Logo | null;
	overlay: boolean | null;
	bzt: boolean | null;
	iiif: boolean | null;
	form_url: string | null;
	sector: string | null;
	category: string | null;
	account_manager: Person | null;
	classification: Concept | null;
	units: OrgEntity[];
	contact_point: ContactPoint[];
	primary_site: Site | null;
	sites: Site[];
	posts: Post[];
	unit_of?: OrgEntity;
	/** Internal: types for the `type` filter and the enum sector value. */
	orgTypes: OrgType[];
	sectorValue: Sector | null;
}

const PLACES: Array<[string, string, string]> = [
	['Antwerpen', '2000', 'Antwerpen'],
	['Gent', '9000', 'Oost-Vlaanderen'],
	['Brugge', '8000', 'West-Vlaanderen'],
	['Leuven', '3000', 'Vlaams-Brabant'],
	['Hasselt', '3500', 'Limburg'],
	['Mechelen', '2800', 'Antwerpen'],
	['Kortrijk', '8500', 'West-Vlaanderen'],
	['Aalst', '9300', 'Oost-Vlaanderen'],
	['Brussel', '1000', 'Brussel'],
	['Oostende', '8400', 'West-Vlaanderen'],
	['Genk', '3600', 'Limburg'],
	['Turnhout', '2300', 'Antwerpen'],
];
const ORG_KINDS = [
	'Stadsarchief',
	'Museum',
	'Bibliotheek',
	'Erfgoedcel',
	'Omroep',
	'Cultuurcentrum',
	'Documentatiecentrum',
	'Productiehuis',
	'Digitaliseringsbedrijf',
	'Vzw',
];
const SCHOOL_KINDS = [
	'Basisschool',
	'Atheneum',
	'Sint-Jozefscollege',
	'Technisch Instituut',
	'Kunsthumaniora',
	'Lyceum',
];
const STREETS = [
	'Kerkstraat',
	'Stationsstraat',
	'Dorpsstraat',
	'Molenstraat',
	'Schoolstraat',
	'Nieuwstraat',
	'Kouter',
	'Grote Markt',
];
const CLASSIFICATIONS = [
	'Archief',
	'Museum',
	'Bibliotheek',
	'Omroep',
	'Erfgoedcel',
	'Overheidsinstelling',
	'School',
	'Dienstverlener',
	'Productiehuis',
];
const ROLES = [
	'Directeur',
	'Archivaris',
	'Collectiebeheerder',
	'Communicatiemedewerker',
	'Technisch contact',
	'Contactpersoon',
];
const CONTACT_TYPES = ['primary', 'financial', 'technical', 'delivery'];
/** Held by account managers only (kept out of ROLES so the staff's random roles stay as they were). */
const ACCOUNT_MANAGER_ROLE = 'Accountmanager';
const ACCOUNT_MANAGER_SPECIALISATIONS = ['Accountmanager cultuur', 'Accountmanager onderwijs'];

function slugify(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

function concept(kind: string, label: string, altLabel: string | null = null): Concept {
	return {
		iri: `${IRI_BASE}/concept/${kind}/${slugify(label)}`,
		label,
		alt_label: altLabel,
		broader: [],
		narrower: [],
	};
}

function conceptTree(kind: string, rootLabel: string, labels: string[]): Concept[] {
	const root = concept(kind, rootLabel);
	const children = labels.map((label) => concept(kind, label, label.toLowerCase()));
	for (const child of children) {
		child.broader.push(root);
		root.narrower.push(child);
	}
	return children;
}

export interface OrgDatasetOptions {
	rows: number;
	seed: number;
}

/** Organization count: about 3 per AI row, at least 1,600 (paging crosses 500 several times), at most 30,000. */
export function organizationCount(rows: number): number {
	return Math.min(30_000, Math.max(1_600, rows * 3));
}

export class OrgDataset {
	/** Everything `organizations` can return (OR- organizations and schools), in generation order. */
	readonly organizations: OrgEntity[] = [];
	readonly contentPartners: OrgEntity[] = [];
	/** Everything `schools` can return: schools plus OR- organizations of sector Onderwijs. */
	readonly schools: OrgEntity[] = [];
	readonly units: OrgEntity[] = [];
	readonly persons: Person[] = [];
	readonly accountManagers: Person[] = [];
	readonly classifications: Concept[];
	readonly roles: Concept[];
	readonly accountManagerRole: Concept;
	private readonly seed: number;

	constructor(options: OrgDatasetOptions) {
		this.seed = options.seed;
		this.classifications = conceptTree('organisatietype', 'Organisatietype', CLASSIFICATIONS);
		this.roles = conceptTree('rol', 'Rol', ROLES);
		this.accountManagerRole = concept(
			'rol',
			ACCOUNT_MANAGER_ROLE,
			ACCOUNT_MANAGER_ROLE.toLowerCase(),
		);
		const roleRoot = this.roles[0].broader[0];
		this.accountManagerRole.broader.push(roleRoot);
		roleRoot.narrower.push(this.accountManagerRole);
		// The one role with narrower roles, so `role.narrower` has data.
		for (const label of ACCOUNT_MANAGER_SPECIALISATIONS) {
			const narrower = concept('rol', label);
			narrower.broader.push(this.accountManagerRole);
			this.accountManagerRole.narrower.push(narrower);
		}
		const count = organizationCount(options.rows);
		for (let i = 0; i < 12; i++)
			this.accountManagers.push(
				this.person(Random.for(this.seed, 'account-manager', i), i, 'meemoo.test'),
			);
		const usedIds = new Set<string>();
		for (let index = 0; index < count; index++) {
			const id = organizationId(this.seed, index);
			if (usedIds.has(id)) continue;
			usedIds.add(id);
			this.organizations.push(this.organization(index, id));
		}
		const schoolCount = Math.max(200, Math.floor(count / 5));
		for (let index = 0; index < schoolCount; index++) this.organizations.push(this.school(index));
		for (const org of this.organizations) {
			if (org.orgTypes.includes('ContentPartner')) this.contentPartners.push(org);
			if (org.__typename === 'School' || org.sectorValue === 'Onderwijs') this.schools.push(org);
		}
		this.generateStaff(Math.max(400, Math.floor(count / 2)));
	}

	private address(rng: Random, iriKey: string, contactType: string): PostalAddress {
		const [locality, postalCode, region] = rng.pick(PLACES);
		return {
			iri: `${IRI_BASE}/address/${iriKey}`,
			contact_type: contactType,
			email: rng.chance(0.5) ? `info@${slugify(locality)}.example` : null,
			telephone: rng.chance(0.6)
				? `+32 ${rng.int(2, 9)} ${rng.int(100, 999)} ${rng.int(10, 99)} ${rng.int(10, 99)}`
				: null,
			country: 'BE',
			locality,
			region,
			post_office_box_number: rng.chance(0.2) ? String(rng.int(1, 40)) : null,
			postal_code: postalCode,
			street: `${rng.pick(STREETS)} ${rng.int(1, 200)}`,
		};
	}

	private commonFields(
		rng: Random,
		typename: OrgTypename,
		iri: string,
		id: string,
		label: string,
		sector: Sector | null,
		orgTypes: OrgType[],
	): OrgEntity {
		const slug = slugify(label);
		const sites = Array.from(
			{ length: rng.int(1, 2) },
			(_, k): Site => ({
				iri: `${iri}/site/${k + 1}`,
				address: this.address(
					rng,
					`${id.toLowerCase()}-${k + 1}`,
					k === 0 ? 'primary' : 'delivery',
				),
			}),
		);
		const contactPoints = CONTACT_TYPES.slice(0, rng.int(1, 3)).map(
			(contactType, k): ContactPoint => ({
				__typename: 'ContactPoint',
				iri: `${iri}/contact/${k + 1}`,
				contact_type: contactType,
				email: `${contactType}@${slug}.example`,
				telephone: rng.chance(0.7)
					? `+32 ${rng.int(2, 9)} ${rng.int(100, 999)} ${rng.int(10, 99)} ${rng.int(10, 99)}`
					: null,
			}),
		);
		const isCp = orgTypes.includes('ContentPartner');
		return {
			__typename: typename,
			iri,
			id,
			label,
			alt_label: rng.chance(0.3)
				? label
						.split(' ')
						.map((word) => word[0])
						.join('')
						.toUpperCase()
				: null,
			mam_label: isCp ? label.replace(/[^A-Za-z0-9]+/g, '') : null,
			slug,
			homepage: rng.chance(0.8) ? `https://www.${slug}.example` : null,
			description: rng.chance(0.6) ? `${label} bewaart en ontsluit audiovisueel erfgoed.` : null,
			logo: rng.chance(0.7)
				? {
						iri: `${iri}/logo`,
						url: `https://assets.archive.test/logos/${slug}.png`,
						width: rng.pick([200, 400, 512]),
						height: rng.pick([100, 200, 256]),
					}
				: null,
			overlay: isCp ? rng.chance(0.5) : null,
			bzt: isCp ? rng.chance(0.5) : null,
			iiif: isCp ? rng.chance(0.4) : rng.chance(0.1),
			form_url: isCp && rng.chance(0.5) ? `https://www.${slug}.example/aanvraag` : null,
			sector: sector ? sectorLabel(sector) : null,
			category: null,
			account_manager: isCp || rng.chance(0.5) ? rng.pick(this.accountManagers) : null,
			classification: rng.pick(this.classifications),
			units: [],
			contact_point: contactPoints,
			primary_site: sites[0],
			sites,
			posts: [],
			orgTypes,
			sectorValue: sector,
		};
	}

	private organization(index: number, id: string): OrgEntity {
		const rng = Random.for(this.seed, 'organization', index);
		const isCp = index < 8 || rng.chance(0.35);
		const [place] = rng.pick(PLACES);
		const label = `${rng.pick(ORG_KINDS)} ${place}${rng.chance(0.3) ? ` ${rng.int(2, 99)}` : ''}`;
		let sector: Sector;
		let orgTypes: OrgType[];
		if (isCp) {
			sector = rng.pick([
				'Cultuur',
				'Cultuur',
				'Publieke_Omroep',
				'Regionale_Omroep',
				'Landelijke_Private_Omroep',
				'Overheid',
			] as const);
			orgTypes = ['ContentPartner'];
		} else {
			sector = rng.pick(SECTORS);
			const candidates: OrgType[] =
				sector === 'Onderwijs'
					? ['EducationalPartner', 'ServiceConsumer']
					: sector === 'Leverancier'
						? ['ServiceProvider', 'DigitizationPartner']
						: ['ServiceConsumer', 'ProjectPartner', 'Other', 'ServiceProvider'];
			orgTypes = [rng.pick(candidates)];
		}
		const org = this.commonFields(
			rng,
			isCp ? 'ContentPartner' : 'Organization',
			`${IRI_BASE}/organization/${id}`,
			id,
			label,
			sector,
			orgTypes,
		);
		this.varyContactPoints(org, Random.for(this.seed, 'contact-variety', index));
		org.category =
			orgTypes[0] === 'ContentPartner'
				? 'Content Partner'
				: orgTypes[0].replace(/([a-z])([A-Z])/g, '$1 $2');
		if (rng.chance(0.2)) {
			for (let k = 1; k <= rng.int(1, 3); k++) {
				const unitId = `${id}-U${k}`;
				const unit = this.commonFields(
					rng,
					'OrganizationalUnit',
					`${IRI_BASE}/organization/${unitId}`,
					unitId,
					`${label} - afdeling ${k}`,
					sector,
					orgTypes,
				);
				unit.unit_of = org;
				org.units.push(unit);
				this.units.push(unit);
			}
		}
		return org;
	}

	/** Some organizations have no `primary` contact point, some two of one type (a separate stream: the rest stays). */
	private varyContactPoints(org: OrgEntity, rng: Random): void {
		const points = org.contact_point;
		if (rng.chance(0.15) && points.length > 1) {
			points.shift();
		} else if (rng.chance(0.2)) {
			points.push({
				__typename: 'ContactPoint',
				iri: `${org.iri}/contact/${points.length + 1}`,
				contact_type: 'technical',
				email: `helpdesk@${org.slug}.example`,
				telephone: rng.chance(0.5)
					? `+32 ${rng.int(2, 9)} ${rng.int(100, 999)} ${rng.int(10, 99)} ${rng.int(10, 99)}`
					: null,
			});
		}
	}

	private school(index: number): OrgEntity {
		const rng = Random.for(this.seed, 'school', index);
		const id = String(10_000 + ((index * 7919 + 13) % 90_000)).padStart(6, '0');
		const [place] = rng.pick(PLACES);
		const school = this.commonFields(
			rng,
			'School',
			`${IRI_BASE}/school/${id}`,
			id,
			`${rng.pick(SCHOOL_KINDS)} ${place}`,
			null,
			['EducationalPartner'],
		);
		school.classification = this.classifications.find((item) => item.label === 'School') ?? null;
		return school;
	}

	private person(rng: Random, index: number, domain: string): Person {
		const given = rng.pick(GIVEN_NAMES);
		const family = rng.pick(FAMILY_NAMES);
		return {
			iri: `${IRI_BASE}/person/${rng.uuid()}`,
			given_name: given,
			family_name: family,
			telephone: rng.chance(0.5)
				? `+32 ${rng.int(470, 499)} ${rng.int(10, 99)} ${rng.int(10, 99)} ${rng.int(10, 99)}`
				: null,
			email: `${slugify(given)}.${slugify(family)}${index}@${domain}`,
			holds: [],
			account_manager_of: [],
		};
	}

	private generateStaff(count: number): void {
		for (const org of this.organizations) org.account_manager?.account_manager_of.push(org);
		this.giveAccountManagersPosts();
		this.persons.push(...this.accountManagers);
		const withPosts = this.organizations.filter((org) => org.__typename !== 'School');
		for (let index = 0; index < count; index++) {
			const rng = Random.for(this.seed, 'person', index);
			const person = this.person(rng, index, 'example.org');
			for (let k = rng.int(1, 2); k > 0; k--) {
				const org = withPosts[rng.int(0, withPosts.length - 1)];
				const post: Post = {
					iri: `${IRI_BASE}/post/${rng.uuid()}`,
					role: rng.pick(this.roles),
					post_in: [org],
				};
				person.holds.push(post);
				org.posts.push(post);
			}
			this.persons.push(person);
		}
		this.staffUnits();
	}

	/** Account managers work for the operator: the first service provider that is not a content partner. */
	private giveAccountManagersPosts(): void {
		const operator = this.organizations.find(
			(org) => org.__typename === 'Organization' && org.orgTypes.includes('ServiceProvider'),
		);
		if (!operator) return;
		this.accountManagers.forEach((manager, index) => {
			const rng = Random.for(this.seed, 'account-manager-post', index);
			const post: Post = {
				iri: `${IRI_BASE}/post/${rng.uuid()}`,
				role: this.accountManagerRole,
				post_in: [operator],
			};
			manager.holds.push(post);
			operator.posts.push(post);
		});
	}

	/** Half the units get a post held by one of the staff (a post in a unit is `post_in` that unit). */
	private staffUnits(): void {
		const staff = this.persons.slice(this.accountManagers.length);
		this.units.forEach((unit, index) => {
			const rng = Random.for(this.seed, 'unit-post', index);
			if (!rng.chance(0.5)) return;
			const person = rng.pick(staff);
			const post: Post = {
				iri: `${IRI_BASE}/post/${rng.uuid()}`,
				role: rng.pick(this.roles),
				post_in: [unit],
			};
			person.holds.push(post);
			unit.posts.push(post);
		});
	}
}
