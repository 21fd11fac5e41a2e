import { buildSchema, isInterfaceType, isObjectType } from 'graphql';
import type { GraphQLNamedType } from 'graphql';

import { getDocumentedSchema } from '../../../nodes/ArchiveOrganization/api/documentedSchema';
import { ORG_SDL } from '../../../dev/emulators/org/schema';
import { pick } from './helpers';

/**
 * The API documentation, field by field, as written there (`Logo`'s fields: "not shown"). The fallback schema must hold
 * exactly this: a field the seed does not show may not exist on the real server and would fail every query.
 */
const ORGANIZATION_LIKE = {
	iri: 'ID!',
	id: 'String!',
	label: 'String',
	alt_label: 'String',
	mam_label: 'String',
	slug: 'String',
	homepage: 'String',
	description: 'String',
	logo: 'Logo',
	overlay: 'Boolean',
	bzt: 'Boolean',
	form_url: 'String',
	sector: 'String',
	account_manager: 'Person',
	classification: 'Concept',
	units: '[OrganizationalUnit]',
	contact_point: '[ContactPoint]',
	primary_site: 'Site',
	sites: '[Site]',
	posts: '[Post]',
};
const CONTACT = { iri: 'ID!', contact_type: 'String', email: 'String', telephone: 'String' };
const SEED_TYPES: Record<string, Record<string, string>> = {
	IOrganization: ORGANIZATION_LIKE,
	ContentPartner: ORGANIZATION_LIKE,
	School: ORGANIZATION_LIKE,
	Organization: { ...ORGANIZATION_LIKE, category: 'String' },
	OrganizationalUnit: { ...ORGANIZATION_LIKE, unit_of: 'IOrganization!' },
	Person: {
		iri: 'ID!',
		given_name: 'String',
		family_name: 'String',
		telephone: 'String',
		email: 'String',
		holds: '[Post]',
		account_manager_of: '[Organization]',
	},
	Post: { iri: 'ID!', role: 'Concept', post_in: '[Organization]!' },
	Site: { iri: 'ID!', address: 'PostalAddress' },
	PostalAddress: {
		...CONTACT,
		country: 'String',
		locality: 'String',
		region: 'String',
		post_office_box_number: 'String',
		postal_code: 'String',
		street: 'String',
	},
	IContactPoint: CONTACT,
	ContactPoint: CONTACT,
	// The seed leaves the scalar types of iri, label and alt_label open: any scalar is the seed's.
	Concept: {
		iri: 'scalar',
		label: 'scalar',
		alt_label: 'scalar',
		broader: '[Concept]',
		narrower: '[Concept]',
	},
	Logo: {},
};

function fieldsOf(type: GraphQLNamedType | null | undefined): Record<string, string> | undefined {
	if (!isObjectType(type) && !isInterfaceType(type)) return undefined;
	return Object.fromEntries(
		Object.values(type.getFields()).map((field) => [field.name, String(field.type)]),
	);
}

function asSeedWrites(typeName: string, fields: Record<string, string>): Record<string, string> {
	if (typeName !== 'Concept') return fields;
	const scalar = new Set(['ID!', 'ID', 'String', 'String!']);
	return Object.fromEntries(
		Object.entries(fields).map(([name, type]) => [name, scalar.has(type) ? 'scalar' : type]),
	);
}

describe('the fallback schema is the seed, and the emulator has all of it', () => {
	it('declares exactly the fields the API documentation shows (nothing invented: no `Logo { iri }`)', () => {
		const seed = getDocumentedSchema();
		const declared: Record<string, Record<string, string>> = {};
		for (const typeName of Object.keys(SEED_TYPES)) {
			const fields = fieldsOf(seed.getType(typeName));
			if (fields) declared[typeName] = asSeedWrites(typeName, fields);
		}
		// Logo's fields are not shown: the fallback cannot declare the type, so it has no `logo` field either.
		const withoutLogo = Object.fromEntries(
			Object.entries(SEED_TYPES)
				.filter(([name]) => name !== 'Logo')
				.map(([name, fields]) => [
					name,
					Object.fromEntries(Object.entries(fields).filter(([field]) => field !== 'logo')),
				]),
		);
		expect(declared).toEqual(withoutLogo);
	});

	it('the emulator schema has every field of the seed with the seed type', () => {
		const emulator = buildSchema(ORG_SDL);
		for (const [typeName, seedFields] of Object.entries(SEED_TYPES)) {
			const fields = fieldsOf(emulator.getType(typeName));
			expect(fields).toBeDefined();
			const written = asSeedWrites(typeName, fields ?? {});
			expect(pick(written, Object.keys(seedFields))).toEqual(seedFields);
		}
	});
});
