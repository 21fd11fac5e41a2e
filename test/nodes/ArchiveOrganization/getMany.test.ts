import type { Person } from '../../../dev/emulators/org/dataset';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import {
	ORGANIZATION_SCALARS,
	simplifiedPerson,
	jsonOf,
	orgCredentials,
	pick,
	runOrganizationNode,
	sortedByIri,
} from './helpers';
import { graphqlPayload, startRecordingProxy } from './recordingProxy';

// 1000 rows: 3,600 organizations, ~1,080 content partners, ~880 schools, 1,512 persons: all above the 500 cap.
const sandbox = useSandbox({ rows: 1000 });

const ORGANIZATION_BASIC = [...ORGANIZATION_SCALARS, 'category'];

describe('Get Many, Return All, basic fields: exactly the emulator data in IRI order', () => {
	it.each([
		[
			'contentPartner',
			(): Array<{ iri: string }> => sandbox().data.org.contentPartners,
			ORGANIZATION_SCALARS,
		],
		[
			'organization',
			(): Array<{ iri: string }> => sandbox().data.org.organizations,
			ORGANIZATION_BASIC,
		],
		['school', (): Array<{ iri: string }> => sandbox().data.org.schools, ORGANIZATION_SCALARS],
		['person', (): Array<{ iri: string }> => sandbox().data.org.persons, undefined],
	] as const)('%s', async (resource, entities, fields) => {
		const expected = sortedByIri(entities()).map((entity) =>
			fields ? pick(entity, [...fields]) : simplifiedPerson(entity as Person),
		);
		expect(expected.length).toBeGreaterThan(500);
		const result = await runOrganizationNode(sandbox(), {
			resource,
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual(expected);
		expect(
			result.outputs[0].every((item) => JSON.stringify(item.pairedItem) === '{"item":0}'),
		).toBe(true);
	});
});

it('pages past the 500 cap concurrently with faults injected and still returns every row once, in order', async () => {
	sandbox().faults.set('org', {
		status5xx: { every: 4, code: 502 },
		status429: { every: 5, retryAfter: 0 },
		dropConnection: { every: 7 },
	});
	const expected = sortedByIri(sandbox().data.org.organizations).map((entity) =>
		pick(entity, ORGANIZATION_BASIC),
	);
	const result = await runOrganizationNode(sandbox(), {
		resource: 'organization',
		operation: 'getAll',
		returnAll: true,
		options: { pageSize: 300, maxConcurrency: 3 },
	});
	expect(result.error).toBeUndefined();
	expect(jsonOf(result)).toEqual(expected);
	const faults = sandbox().counters.get().org.faults;
	expect(faults['graphql.status5xx']).toBeGreaterThan(0);
	expect(faults['graphql.status429']).toBeGreaterThan(0);
	expect(faults['graphql.dropConnection']).toBeGreaterThan(0);
});

it('Limit mode returns the first rows in IRI order, across pages', async () => {
	const expected = sortedByIri(sandbox().data.org.contentPartners)
		.slice(0, 750)
		.map((entity) => pick(entity, ORGANIZATION_SCALARS));
	const result = await runOrganizationNode(sandbox(), {
		resource: 'contentPartner',
		operation: 'getAll',
		returnAll: false,
		limit: 750,
	});
	expect(result.error).toBeUndefined();
	expect(jsonOf(result)).toEqual(expected);
});

describe('on the wire', () => {
	it('sends offset on every data request, as POST with a Bearer header by default', async () => {
		const proxy = await startRecordingProxy(sandbox().org.baseUrl);
		try {
			const credentials = orgCredentials(sandbox(), { apiUrl: `${proxy.baseUrl}/organisation_v2` });
			const result = await runOrganizationNode(
				sandbox(),
				{
					resource: 'school',
					operation: 'getAll',
					returnAll: false,
					limit: 120,
					options: { pageSize: 50 },
				},
				{ credentials },
			);
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(120);
			const dataRequests = proxy.requests.filter((request) =>
				graphqlPayload(request).query.includes('schools'),
			);
			expect(dataRequests.map((request) => graphqlPayload(request).variables)).toEqual([
				{ offset: 0, limit: 50 },
				{ offset: 50, limit: 50 },
				{ offset: 100, limit: 20 },
			]);
			for (const request of proxy.requests) {
				expect(request.method).toBe('POST');
				expect(request.headers.authorization).toMatch(/^Bearer \S+$/);
				expect(request.url.searchParams.has('jwtauth')).toBe(false);
			}
		} finally {
			await proxy.close();
		}
	});

	it('uses GET with the token in jwtauth when chosen, with the same result as POST', async () => {
		const proxy = await startRecordingProxy(sandbox().org.baseUrl);
		try {
			const parameters = {
				resource: 'organization',
				operation: 'getAll',
				returnAll: false,
				limit: 600,
				filters: { sector: 'Cultuur' },
				output: 'simplified',
			};
			const viaPost = await runOrganizationNode(sandbox(), parameters);
			const credentials = orgCredentials(sandbox(), {
				apiUrl: `${proxy.baseUrl}/organisation_v2`,
				jwtPlacement: 'query',
			});
			const viaGet = await runOrganizationNode(
				sandbox(),
				{ ...parameters, options: { requestMethod: 'GET' } },
				{ credentials },
			);
			expect(viaGet.error).toBeUndefined();
			expect(jsonOf(viaGet)).toHaveLength(600);
			expect(jsonOf(viaGet)).toEqual(jsonOf(viaPost));
			expect(proxy.requests.length).toBeGreaterThan(2);
			for (const request of proxy.requests) {
				expect(request.method).toBe('GET');
				expect(request.url.searchParams.get('jwtauth')).toMatch(/\S+/);
				expect(request.headers.authorization).toBeUndefined();
			}
			const variables = proxy.requests
				.map((request) => graphqlPayload(request).variables)
				.filter((v) => 'limit' in v);
			expect(variables.every((v) => v.sector === 'Cultuur' && typeof v.offset === 'number')).toBe(
				true,
			);
		} finally {
			await proxy.close();
		}
	});
});

it('falls back to the seed schema when the server refuses introspection (Apollo in production mode)', async () => {
	const proxy = await startRecordingProxy(sandbox().org.baseUrl, (recorded) =>
		recorded.url.pathname.startsWith('/organisation_v2') &&
		graphqlPayload(recorded).query.includes('__schema')
			? {
					status: 400,
					body: {
						errors: [
							{
								message:
									'GraphQL introspection is not allowed by Apollo Server, but the query contained __schema or __type.',
								extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
							},
						],
					},
				}
			: undefined,
	);
	try {
		const credentials = orgCredentials(sandbox(), { apiUrl: `${proxy.baseUrl}/organisation_v2` });
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'contentPartner',
				operation: 'getAll',
				limit: 20,
				output: 'simplified',
				options: { flatten: true },
			},
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		const seedScalars = ORGANIZATION_SCALARS.filter((field) => field !== 'iiif');
		const rows = jsonOf(result);
		expect(rows.map((row) => pick(row, seedScalars))).toEqual(
			sortedByIri(sandbox().data.org.contentPartners)
				.slice(0, 20)
				.map((cp) => pick(cp, seedScalars)),
		);
		// The seed knows no `iiif`: the preset is built from the seed's fields.
		expect(rows[0]).not.toHaveProperty('iiif');
		expect(rows[0].address_locality).toEqual(expect.any(String));
	} finally {
		await proxy.close();
	}
});

it('sends the text filters to the API as written, outer spaces removed: no wildcards added (the API decides how it compares)', async () => {
	const proxy = await startRecordingProxy(sandbox().org.baseUrl);
	try {
		const credentials = orgCredentials(sandbox(), { apiUrl: `${proxy.baseUrl}/organisation_v2` });
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'person',
				operation: 'getAll',
				limit: 5,
				filters: { givenName: '  jAn %_ ', familyName: 'De Smet' },
			},
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		const sent = proxy.requests
			.map((request) => graphqlPayload(request))
			.find((payload) => payload.query.includes('persons'));
		expect(sent?.variables).toEqual({
			given_name: 'jAn %_',
			family_name: 'De Smet',
			offset: 0,
			limit: 5,
		});
		// Label Contains likewise: the API's label argument does the substring match; the node adds no wildcard.
		await runOrganizationNode(
			sandbox(),
			{ resource: 'organization', operation: 'getAll', limit: 5, filters: { label: ' 50%_a*b ' } },
			{ credentials },
		);
		const label = proxy.requests
			.map((request) => graphqlPayload(request))
			.find((payload) => payload.query.includes('organizations'));
		expect(label?.variables).toEqual({ label: '50%_a*b', offset: 0, limit: 5 });
	} finally {
		await proxy.close();
	}
});

describe('filters', () => {
	const organizations = () => sortedByIri(sandbox().data.org.organizations);

	it('filters organizations by label substring (case-insensitive), type with subtypes and sector', async () => {
		const expected = organizations()
			.filter((org) => org.label.toLowerCase().includes('archief'))
			.filter((org) => org.orgTypes.some((type) => type === 'ContentPartner'))
			.filter((org) => org.sectorValue === 'Cultuur')
			.map((org) => pick(org, ORGANIZATION_BASIC));
		expect(expected.length).toBeGreaterThan(0);
		const result = await runOrganizationNode(sandbox(), {
			resource: 'organization',
			operation: 'getAll',
			returnAll: true,
			filters: { label: 'ARCHIEF', type: 'ContentPartner', sector: 'Cultuur' },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual(expected);
	});

	it('includes subtypes for a type filter (ServiceProvider includes DigitizationPartner)', async () => {
		const expected = organizations()
			.filter((org) =>
				org.orgTypes.some((type) => type === 'ServiceProvider' || type === 'DigitizationPartner'),
			)
			.map((org) => org.id);
		expect(expected.length).toBeGreaterThan(500);
		const result = await runOrganizationNode(sandbox(), {
			resource: 'organization',
			operation: 'getAll',
			returnAll: true,
			filters: { type: 'ServiceProvider' },
		});
		expect(jsonOf(result).map((row) => row.id)).toEqual(expected);
	});

	it('treats empty filter fields as no filter', async () => {
		const result = await runOrganizationNode(sandbox(), {
			resource: 'organization',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: { label: '  ', sector: '' },
		});
		expect(jsonOf(result).map((row) => row.id)).toEqual(
			organizations()
				.slice(0, 5)
				.map((org) => org.id),
		);
	});

	// How the real API compares names is not documented; the emulator's rule (exact, ignoring case) is its own guess.
	it('filters persons by given and family name as the emulator matches them', async () => {
		const someone = sandbox().data.org.persons[100];
		const expected = sortedByIri(sandbox().data.org.persons)
			.filter(
				(person) =>
					person.given_name === someone.given_name && person.family_name === someone.family_name,
			)
			.map(simplifiedPerson);
		const result = await runOrganizationNode(sandbox(), {
			resource: 'person',
			operation: 'getAll',
			returnAll: true,
			filters: { givenName: someone.given_name.toUpperCase(), familyName: someone.family_name },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual(expected);
		expect(expected).toContainEqual(simplifiedPerson(someone));
	});
});

describe('output detail', () => {
	it('returns schools together with OR- organizations of sector Onderwijs, unfiltered (documented)', async () => {
		const result = await runOrganizationNode(sandbox(), {
			resource: 'school',
			operation: 'getAll',
			returnAll: true,
		});
		const rows = jsonOf(result);
		const fromOrganizations = rows.filter((row) => String(row.id).startsWith('OR-'));
		expect(fromOrganizations.length).toBeGreaterThan(0);
		expect(fromOrganizations.every((row) => row.sector === 'Onderwijs')).toBe(true);
		expect(
			rows.filter((row) => !String(row.id).startsWith('OR-')).every((row) => row.sector === null),
		).toBe(true);
	});

	it('flattens the primary site, its whole address and every contact point into columns, dropping nothing', async () => {
		const partners = sortedByIri(sandbox().data.org.contentPartners);
		const expected = partners.map(flattenedPartner);
		// The data has what Flatten must keep: non-primary points, no primary, two points of one type, address e-mail.
		expect(
			partners.some((cp) => !cp.contact_point.some((point) => point.contact_type === 'primary')),
		).toBe(true);
		expect(
			partners.some(
				(cp) => cp.contact_point.filter((point) => point.contact_type === 'technical').length > 1,
			),
		).toBe(true);
		expect(
			partners.some((cp) => cp.primary_site?.address.email && cp.primary_site.address.telephone),
		).toBe(true);
		const result = await runOrganizationNode(sandbox(), {
			resource: 'contentPartner',
			operation: 'getAll',
			returnAll: true,
			output: 'simplified',
			options: { flatten: true },
		});
		expect(result.error).toBeUndefined();
		const rows = jsonOf(result);
		expect(rows).toEqual(expected);
		// Columns in spreadsheet order: the entity, then site and address, then the contact points.
		expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
	});

	it("returns custom nested fields chosen by path, with the record's ID first", async () => {
		const expected = sortedByIri(sandbox().data.org.contentPartners)
			.slice(0, 30)
			.map((cp) => ({
				id: cp.id,
				label: cp.label,
				primary_site: { address: { locality: cp.primary_site?.address.locality } },
				account_manager: cp.account_manager ? { email: cp.account_manager.email } : null,
				classification: {
					label: cp.classification?.label,
					broader: cp.classification?.broader.map((c) => ({ label: c.label })),
				},
			}));
		const result = await runOrganizationNode(sandbox(), {
			resource: 'contentPartner',
			operation: 'getAll',
			limit: 30,
			output: 'selected',
			fields: [
				'label',
				'primary_site.address.locality',
				'account_manager.email',
				'classification.label',
				'classification.broader.label',
			],
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual(expected);
		expect(Object.keys(jsonOf(result)[0])[0]).toBe('id');
	});

	it('Selected Fields with Flatten adds no column that was not selected; persons carry their IRI', async () => {
		const flattened = await runOrganizationNode(sandbox(), {
			resource: 'contentPartner',
			operation: 'getAll',
			limit: 3,
			output: 'selected',
			fields: ['label', 'primary_site.address.locality'],
			options: { flatten: true },
		});
		expect(flattened.error).toBeUndefined();
		for (const row of jsonOf(flattened))
			expect(Object.keys(row)).toEqual(['id', 'label', 'address_locality']);
		const persons = await runOrganizationNode(sandbox(), {
			resource: 'person',
			operation: 'getAll',
			limit: 3,
			output: 'selected',
			fields: ['given_name'],
		});
		expect(persons.error).toBeUndefined();
		expect(Object.keys(jsonOf(persons)[0])).toEqual(['iri', 'given_name']);
	});

	it('returns everything for persons: posts with roles and organizations, account manager of', async () => {
		const manager = sandbox().data.org.accountManagers[0];
		const result = await runOrganizationNode(sandbox(), {
			resource: 'person',
			operation: 'getAll',
			returnAll: true,
			filters: { givenName: manager.given_name, familyName: manager.family_name },
			output: 'raw',
		});
		const row = jsonOf(result).find((entry) => entry.iri === manager.iri);
		expect(row).toBeDefined();
		const managed = (row?.account_manager_of as Array<{ id: string }>).map((org) => org.id);
		expect(managed).toEqual(manager.account_manager_of.map((org) => org.id));
	});
});

type ContentPartner = ReturnType<typeof sandbox>['data']['org']['contentPartners'][number];

/** Flatten's columns, written out from the emulator data. */
function flattenedPartner(cp: ContentPartner): Record<string, unknown> {
	const address = cp.primary_site?.address;
	const main =
		cp.contact_point.find((point) => point.contact_type === 'primary') ?? cp.contact_point[0];
	const row: Record<string, unknown> = {
		...pick(cp, ORGANIZATION_SCALARS),
		primary_site_iri: cp.primary_site?.iri ?? null,
		address_iri: address?.iri ?? null,
		address_contact_type: address?.contact_type ?? null,
		address_street: address?.street ?? null,
		address_post_office_box_number: address?.post_office_box_number ?? null,
		address_postal_code: address?.postal_code ?? null,
		address_locality: address?.locality ?? null,
		address_region: address?.region ?? null,
		address_country: address?.country ?? null,
		address_email: address?.email ?? null,
		address_telephone: address?.telephone ?? null,
		contact_iri: main?.iri ?? null,
		contact_type: main?.contact_type ?? null,
		contact_email: main?.email ?? null,
		contact_telephone: main?.telephone ?? null,
	};
	const perType = new Map<string, number>();
	for (const point of cp.contact_point) {
		const count = (perType.get(point.contact_type) ?? 0) + 1;
		perType.set(point.contact_type, count);
		const prefix =
			count === 1 ? `contact_${point.contact_type}` : `contact_${point.contact_type}_${count}`;
		row[`${prefix}_iri`] = point.iri;
		row[`${prefix}_email`] = point.email;
		row[`${prefix}_telephone`] = point.telephone;
	}
	return row;
}
