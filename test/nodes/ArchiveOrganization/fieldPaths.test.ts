import { buildSchema } from 'graphql';
import type { GraphQLObjectType } from 'graphql';

import {
	listFieldPaths,
	resolveFieldPaths,
} from '../../../nodes/ArchiveOrganization/api/fieldPaths';
import { flattenOrganization } from '../../../nodes/ArchiveOrganization/api/flatten';
import { RESOURCES } from '../../../nodes/ArchiveOrganization/api/resources';
import { getDocumentedSchema } from '../../../nodes/ArchiveOrganization/api/documentedSchema';
import { ORG_SDL } from '../../../dev/emulators/org/schema';

const live = buildSchema(ORG_SDL);
const typeOf = (schema: typeof live, name: string) => schema.getType(name) as GraphQLObjectType;

describe('resolveFieldPaths', () => {
	it('expands `*` to the scalar fields the schema has, so presets follow the server', () => {
		const liveBasic = resolveFieldPaths(typeOf(live, 'ContentPartner'), ['*']).paths;
		const seedBasic = resolveFieldPaths(typeOf(getDocumentedSchema(), 'ContentPartner'), [
			'*',
		]).paths;
		expect(liveBasic).toContain('iiif');
		expect(seedBasic).not.toContain('iiif');
		expect(liveBasic.filter((path) => path !== 'iiif')).toEqual(seedBasic);
	});

	it('skips preset paths a server lacks instead of failing', () => {
		const seedFull = resolveFieldPaths(
			typeOf(getDocumentedSchema(), 'Organization'),
			RESOURCES.organization.presets.raw,
		);
		// The seed does not show Logo's fields, so the fallback has no `logo`: only those preset paths are skipped.
		expect(seedFull.unknown).toEqual(['logo.*', 'units.logo.*']);
		const withExtra = resolveFieldPaths(typeOf(getDocumentedSchema(), 'Organization'), [
			'label',
			'logo.url',
			'primary_site.address.*',
		]);
		expect(withExtra.unknown).toEqual(['logo.url']);
		expect(withExtra.paths).toEqual([
			'label',
			'primary_site.address.iri',
			'primary_site.address.contact_type',
			'primary_site.address.email',
			'primary_site.address.telephone',
			'primary_site.address.country',
			'primary_site.address.locality',
			'primary_site.address.region',
			'primary_site.address.post_office_box_number',
			'primary_site.address.postal_code',
			'primary_site.address.street',
		]);
	});

	it('selects the scalar fields of an object path and reports paths through scalars as unknown', () => {
		const resolved = resolveFieldPaths(typeOf(live, 'Person'), [
			'holds.role',
			'email.domain',
			'holds.role.label',
		]);
		expect(resolved.paths).toEqual(['holds.role.iri', 'holds.role.label', 'holds.role.alt_label']);
		expect(resolved.unknown).toEqual(['email.domain']);
	});

	it('walks interface types (OrganizationalUnit.unit_of: IOrganization)', () => {
		expect(resolveFieldPaths(typeOf(live, 'OrganizationalUnit'), ['unit_of.label']).paths).toEqual([
			'unit_of.label',
		]);
	});

	it('every preset of every resource resolves fully against the live schema', () => {
		for (const resource of Object.values(RESOURCES)) {
			const rootType = live.getQueryType()?.getFields()[resource.rootField];
			const typeName = String(rootType?.type).replace(/[[\]!]/g, '');
			for (const preset of Object.values(resource.presets)) {
				expect(resolveFieldPaths(typeOf(live, typeName), preset).unknown).toEqual([]);
			}
		}
	});
});

describe('listFieldPaths', () => {
	it('stops at the depth limit', () => {
		const paths = listFieldPaths(typeOf(live, 'Person'), 2).map((option) => option.path);
		expect(paths).toContain('holds.iri');
		expect(paths).not.toContain('holds.role.label');
	});
});

describe('flattenOrganization', () => {
	it('uses the primary contact point, wherever it is in the list, and keeps every point under its type', () => {
		const flat = flattenOrganization({
			id: 'OR-1',
			primary_site: {
				iri: 's',
				address: { street: 'Kerkstraat 1', postal_code: '9000', locality: 'Gent' },
			},
			contact_point: [
				{ iri: 'c1', contact_type: 'financial', email: 'fin@x', telephone: '1' },
				{ iri: 'c2', contact_type: 'Primary', email: 'info@x', telephone: null },
			],
		});
		expect(flat).toEqual({
			id: 'OR-1',
			primary_site_iri: 's',
			address_iri: null,
			address_contact_type: null,
			address_street: 'Kerkstraat 1',
			address_post_office_box_number: null,
			address_postal_code: '9000',
			address_locality: 'Gent',
			address_region: null,
			address_country: null,
			address_email: null,
			address_telephone: null,
			contact_iri: 'c2',
			contact_type: 'Primary',
			contact_email: 'info@x',
			contact_telephone: null,
			contact_financial_iri: 'c1',
			contact_financial_email: 'fin@x',
			contact_financial_telephone: '1',
			contact_primary_iri: 'c2',
			contact_primary_email: 'info@x',
			contact_primary_telephone: null,
		});
	});

	it('falls back to the first contact point, names odd and missing types, and gives null columns when data is missing', () => {
		const flat = flattenOrganization({
			id: 'OR-2',
			primary_site: null,
			contact_point: [
				null,
				{ contact_type: 'technical', email: 't@x' },
				{ email: 'u@x' },
				{ contact_type: ' Technical ', email: 't2@x' },
			],
		});
		expect(flat.contact_email).toBe('t@x');
		expect(flat.contact_type).toBe('technical');
		expect(flat.contact_untyped_email).toBe('u@x');
		expect(flat.contact_technical_2_email).toBe('t2@x');
		expect(flat.address_locality).toBeNull();
		expect(flat.primary_site_iri).toBeNull();
		expect(flattenOrganization({ id: 'OR-3' }).contact_email).toBeNull();
	});

	it('keeps fields a server adds to the site, the address and the contact points', () => {
		const flat = flattenOrganization({
			primary_site: { iri: 's', label: 'Depot', address: { iri: 'a', geo: '51,3' } },
			contact_point: [{ iri: 'c', contact_type: 'primary', url: 'https://x' }],
		});
		expect(flat).toEqual(
			expect.objectContaining({
				primary_site_label: 'Depot',
				address_geo: '51,3',
				contact_url: 'https://x',
				contact_primary_url: 'https://x',
			}),
		);
	});
});
