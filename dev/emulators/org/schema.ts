/** The Organization API schema (as documented, plus the real service's extras) and its resolvers. */
import { type GraphQLSchema, buildSchema } from 'graphql';

import { Random } from '../core/random';
import {
	ORG_SUBTYPES,
	ORG_TYPES,
	type OrgDataset,
	type OrgType,
	SECTORS,
	type Sector,
} from './dataset';

const ORGANIZATION_FIELDS = `
	iri: ID!
	id: String!
	label: String
	alt_label: String
	mam_label: String
	slug: String
	homepage: String
	description: String
	logo: Logo
	overlay: Boolean
	bzt: Boolean
	iiif: Boolean
	form_url: String
	sector: String
	account_manager: Person
	classification: Concept
	units: [OrganizationalUnit]
	contact_point: [ContactPoint]
	primary_site: Site
	sites: [Site]
	posts: [Post]`;

export const ORG_SDL = `
enum OrgType { ${ORG_TYPES.join(' ')} }
enum Sector { ${SECTORS.join(' ')} }

interface IOrganization {${ORGANIZATION_FIELDS}
}
type ContentPartner implements IOrganization {${ORGANIZATION_FIELDS}
}
type School implements IOrganization {${ORGANIZATION_FIELDS}
}
type Organization implements IOrganization {${ORGANIZATION_FIELDS}
	category: String
}
type OrganizationalUnit implements IOrganization {${ORGANIZATION_FIELDS}
	unit_of: IOrganization!
}
type Logo { iri: ID! url: String width: Int height: Int }
type Person {
	iri: ID!
	given_name: String
	family_name: String
	telephone: String
	email: String
	holds: [Post]
	account_manager_of: [Organization]
}
type Post { iri: ID! role: Concept post_in: [Organization]! }
type Site { iri: ID! address: PostalAddress }
type PostalAddress {
	iri: ID!
	contact_type: String
	email: String
	telephone: String
	country: String
	locality: String
	region: String
	post_office_box_number: String
	postal_code: String
	street: String
}
interface IContactPoint { iri: ID! contact_type: String email: String telephone: String }
type ContactPoint implements IContactPoint { iri: ID! contact_type: String email: String telephone: String }
type Concept { iri: ID! label: String alt_label: String broader: [Concept] narrower: [Concept] }

type Query {
	contentpartners(iri: String, id: String, offset: Int, limit: Int): [ContentPartner]
	organizations(iri: String, id: String, offset: Int, limit: Int, label: String, type: OrgType, sector: Sector): [Organization]
	persons(iri: String, given_name: String, family_name: String, offset: Int, limit: Int): [Person]
	schools(iri: String, id: String, offset: Int, limit: Int): [School]
}
`;

export const RESULT_CAP = 500;

export interface OrgContext {
	sparqlDown: boolean;
	/** Ids and iris whose resolvers fail (fault `failKeys`), with the message they fail with. */
	failKeys?: { keys: ReadonlySet<string>; message: string };
	/** Set when a list came back in a per-call order (no `offset`): the answer is not repeatable. */
	unordered?: boolean;
}

interface PageArgs {
	iri?: string | null;
	offset?: number | null;
	limit?: number | null;
}

interface Identified {
	iri: string;
}

export class SparqlUnavailableError extends Error {
	constructor() {
		super('Unable to query SPARQL service');
	}
}

/** Root resolvers: filter, then page. Ordered by iri only when `offset` is given (as the real service). */
export class OrgResolvers {
	private readonly sortedCache = new WeakMap<object, Identified[]>();
	private shuffleCount = 0;

	constructor(
		private readonly data: OrgDataset,
		private readonly seed: number,
	) {}

	rootValue(): Record<string, unknown> {
		return {
			contentpartners: (args: PageArgs & { id?: string | null }, context: OrgContext) =>
				this.run(context, this.data.contentPartners, args, this.byId(args.id), RESULT_CAP),
			schools: (args: PageArgs & { id?: string | null }, context: OrgContext) =>
				this.run(context, this.data.schools, args, this.byId(args.id), RESULT_CAP),
			organizations: (
				args: PageArgs & {
					id?: string | null;
					label?: string | null;
					type?: OrgType | null;
					sector?: Sector | null;
				},
				context: OrgContext,
			) =>
				this.run(context, this.data.organizations, args, this.organizationFilter(args), RESULT_CAP),
			persons: (
				args: PageArgs & { given_name?: string | null; family_name?: string | null },
				context: OrgContext,
			) => this.run(context, this.data.persons, args, this.personFilter(args), undefined),
		};
	}

	private byId(id: string | null | undefined): ((item: { id: string }) => boolean) | undefined {
		return id === undefined || id === null ? undefined : (item) => item.id === id;
	}

	private organizationFilter(args: {
		id?: string | null;
		label?: string | null;
		type?: OrgType | null;
		sector?: Sector | null;
	}) {
		const tests: Array<(org: OrgDataset['organizations'][number]) => boolean> = [];
		if (args.id != null) tests.push((org) => org.id === args.id);
		if (args.label != null) {
			const needle = args.label.toLowerCase();
			tests.push((org) => org.label.toLowerCase().includes(needle));
		}
		if (args.type != null) {
			const accepted = new Set<OrgType>([args.type, ...(ORG_SUBTYPES[args.type] ?? [])]);
			tests.push((org) => org.orgTypes.some((type) => accepted.has(type)));
		}
		if (args.sector != null) tests.push((org) => org.sectorValue === args.sector);
		return tests.length
			? (org: OrgDataset['organizations'][number]) => tests.every((test) => test(org))
			: undefined;
	}

	private personFilter(args: { given_name?: string | null; family_name?: string | null }) {
		const given = args.given_name?.toLowerCase();
		const family = args.family_name?.toLowerCase();
		if (given === undefined && family === undefined) return undefined;
		return (person: OrgDataset['persons'][number]) =>
			(given === undefined || person.given_name.toLowerCase() === given) &&
			(family === undefined || person.family_name.toLowerCase() === family);
	}

	private run<T extends Identified>(
		context: OrgContext,
		all: T[],
		args: PageArgs,
		filter: ((item: T) => boolean) | undefined,
		cap: number | undefined,
	): Array<T | null> {
		if (context.sparqlDown) throw new SparqlUnavailableError();
		const { failKeys } = context;
		const key = (args as { id?: string | null }).id ?? args.iri;
		if (failKeys && key != null && failKeys.keys.has(key)) throw new Error(failKeys.message);
		const hasOffset = args.offset !== undefined && args.offset !== null;
		let items = hasOffset ? this.sortedByIri(all) : all;
		if (args.iri != null) items = items.filter((item) => item.iri === args.iri);
		if (filter) items = items.filter(filter);
		// An unknown iri as the only criterion answers a list with one null (the SPARQL row without bindings).
		if (args.iri != null && items.length === 0 && !filter) return [null];
		const requested =
			args.limit === undefined || args.limit === null ? cap : Math.max(0, args.limit);
		const size = cap === undefined ? requested : Math.min(requested ?? cap, cap);
		if (hasOffset) {
			const start = Math.max(0, args.offset as number);
			return items.slice(start, size === undefined ? undefined : start + size);
		}
		context.unordered = true;
		return this.shuffled(items).slice(0, size);
	}

	private sortedByIri<T extends Identified>(items: T[]): T[] {
		let sorted = this.sortedCache.get(items) as T[] | undefined;
		if (!sorted) {
			sorted = [...items].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
			this.sortedCache.set(items, sorted);
		}
		return sorted;
	}

	/** Without offset the order is unspecified: a different (but seed-deterministic) shuffle on every call. */
	private shuffled<T>(items: T[]): T[] {
		return Random.for(this.seed, 'org-shuffle', this.shuffleCount++).shuffle([...items]);
	}
}

export function buildOrgSchema(): GraphQLSchema {
	return buildSchema(ORG_SDL);
}
