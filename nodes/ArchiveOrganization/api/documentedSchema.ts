import { buildSchema } from 'graphql';
import type { GraphQLSchema } from 'graphql';

const ORGANIZATION_FIELDS = `
	iri: ID!
	id: String!
	label: String
	alt_label: String
	mam_label: String
	slug: String
	homepage: String
	description: String
	overlay: Boolean
	bzt: Boolean
	form_url: String
	sector: String
	account_manager: Person
	classification: Concept
	units: [OrganizationalUnit]
	contact_point: [ContactPoint]
	primary_site: Site
	sites: [Site]
	posts: [Post]`;

/**
 * The documented schema, used when the server refuses introspection. It holds only what the documentation shows:
 * `logo` is left out because the fields of `Logo` are not shown (a guessed field would fail the whole query on the
 * real server). Concept's scalar types are not shown either; ID and String as elsewhere only affect type hints.
 * OrgType and Sector hold the values the real service declares (the documentation shows one each).
 */
const DOCUMENTED_SDL = `
enum OrgType {
	ContentPartner ServiceProvider ServiceConsumer EducationalPartner DigitizationPartner ProjectPartner Other
}
enum Sector {
	Onderwijs Cultuur Overheid Regionale_Omroep Landelijke_Private_Omroep Leverancier Publieke_Omroep
}
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
type ContactPoint { iri: ID! contact_type: String email: String telephone: String }
type Concept { iri: ID! label: String alt_label: String broader: [Concept] narrower: [Concept] }
type Query {
	contentpartners(iri: String, id: String, offset: Int, limit: Int): [ContentPartner]
	organizations(iri: String, id: String, offset: Int, limit: Int, label: String, type: OrgType, sector: Sector): [Organization]
	persons(iri: String, given_name: String, family_name: String, offset: Int, limit: Int): [Person]
	schools(iri: String, id: String, offset: Int, limit: Int): [School]
}
`;

let documentedSchema: GraphQLSchema | undefined;

export function getDocumentedSchema(): GraphQLSchema {
	documentedSchema ??= buildSchema(DOCUMENTED_SDL);
	return documentedSchema;
}
