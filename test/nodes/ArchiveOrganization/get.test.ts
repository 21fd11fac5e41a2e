import { useSandbox } from '../../../dev/harness/sandboxFixture';
import {
	ORGANIZATION_SCALARS,
	PERSON_SCALARS,
	jsonOf,
	pick,
	requestCounts,
	runOrganizationNode,
} from './helpers';

const sandbox = useSandbox({ rows: 200 });

describe('Get by id and by iri', () => {
	it.each([
		['contentPartner', () => sandbox().data.org.contentPartners[3], ORGANIZATION_SCALARS],
		[
			'organization',
			() => sandbox().data.org.organizations[10],
			[...ORGANIZATION_SCALARS, 'category'],
		],
		[
			'school',
			() => sandbox().data.org.schools.find((school) => !school.id.startsWith('OR-'))!,
			ORGANIZATION_SCALARS,
		],
	] as const)('%s by id and by iri', async (resource, entity, fields) => {
		const expected = [pick(entity(), [...fields])];
		const byId = await runOrganizationNode(sandbox(), {
			resource,
			operation: 'get',
			[resource]: { __rl: true, mode: 'id', value: entity().id },
		});
		expect(byId.error).toBeUndefined();
		expect(jsonOf(byId)).toEqual(expected);
		const byIri = await runOrganizationNode(sandbox(), {
			resource,
			operation: 'get',
			[resource]: { __rl: true, mode: 'url', value: entity().iri },
		});
		expect(jsonOf(byIri)).toEqual(expected);
	});

	it('person by iri', async () => {
		const person = sandbox().data.org.persons[42];
		const result = await runOrganizationNode(sandbox(), {
			resource: 'person',
			operation: 'get',
			person: { __rl: true, mode: 'url', value: person.iri },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([pick(person, PERSON_SCALARS)]);
	});

	it('gets everything about an organization: account manager, units, posts with roles, classification tree', async () => {
		const org = sandbox().data.org.organizations.find(
			(entry) => entry.units.length > 0 && entry.posts.length > 0,
		)!;
		const result = await runOrganizationNode(sandbox(), {
			resource: 'organization',
			operation: 'get',
			organization: { __rl: true, mode: 'id', value: org.id },
			output: 'raw',
		});
		expect(result.error).toBeUndefined();
		const [row] = jsonOf(result);
		expect(row.account_manager).toEqual(
			org.account_manager
				? expect.objectContaining(pick(org.account_manager, PERSON_SCALARS))
				: null,
		);
		expect((row.units as Array<{ id: string }>).map((unit) => unit.id)).toEqual(
			org.units.map((unit) => unit.id),
		);
		expect(row.posts).toEqual(
			org.posts.map((post) => ({
				iri: post.iri,
				role: pick(post.role, ['iri', 'label', 'alt_label']),
				post_in: post.post_in.map((entry) => pick(entry, [...ORGANIZATION_SCALARS, 'category'])),
			})),
		);
		const classification = org.classification!;
		expect(row.classification).toEqual({
			...pick(classification, ['iri', 'label', 'alt_label']),
			broader: classification.broader.map((concept) =>
				pick(concept, ['iri', 'label', 'alt_label']),
			),
			narrower: classification.narrower.map((concept) =>
				pick(concept, ['iri', 'label', 'alt_label']),
			),
		});
		expect(row.contact_point).toEqual(
			org.contact_point.map((point) => pick(point, ['iri', 'contact_type', 'email', 'telephone'])),
		);
		expect(row.logo).toEqual(org.logo ? { ...org.logo } : null);
	});

	it('resolves expressions per input item and pairs every output with its input', async () => {
		const partners = sandbox().data.org.contentPartners.slice(0, 3);
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'contentPartner',
				operation: 'get',
				contentPartner: { __rl: true, mode: 'id', value: '={{ $json.partner }}' },
				output: 'selected',
				fields: ['id'],
			},
			{ input: partners.map((partner) => ({ partner: partner.id })) },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual(
			partners.map((partner, index) => ({ json: { id: partner.id }, pairedItem: { item: index } })),
		);
	});
});

describe('not found', () => {
	const unknownIri = 'https://data.archive.test/id/organization/OR-doesnotexist';

	it('the API answers [null] for an unknown iri: the node fails with a clear "not found" error', async () => {
		const result = await runOrganizationNode(sandbox(), {
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: { __rl: true, mode: 'url', value: unknownIri },
		});
		expect(result.error?.message).toBe(`No content partner found with iri "${unknownIri}"`);
		expect(result.error?.description).toMatch(/Return Empty Result When Not Found/);
	});

	it('an unknown id (the API answers []) fails the same way', async () => {
		const result = await runOrganizationNode(sandbox(), {
			resource: 'school',
			operation: 'get',
			school: { __rl: true, mode: 'id', value: '999999' },
		});
		expect(result.error?.message).toBe('No school found with id "999999"');
	});

	it('with Continue On Fail, a missing entity becomes an error item paired with its input', async () => {
		const known = sandbox().data.org.organizations[0];
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'organization',
				operation: 'get',
				organization: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				output: 'selected',
				fields: ['id'],
			},
			{ input: [{ id: 'OR-missing' }, { id: known.id }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{
				json: expect.objectContaining({ error: 'No organization found with id "OR-missing"' }),
				pairedItem: { item: 0 },
			},
			{ json: { id: known.id }, pairedItem: { item: 1 } },
		]);
	});

	it('with "Return Empty Result When Not Found", a missing entity gives no item', async () => {
		const person = sandbox().data.org.persons[0];
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'person',
				operation: 'get',
				person: { __rl: true, mode: 'url', value: '={{ $json.iri }}' },
				output: 'selected',
				fields: ['iri'],
				options: { returnEmptyWhenNotFound: true },
			},
			{ input: [{ iri: 'https://data.archive.test/id/person/nobody' }, { iri: person.iri }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([{ json: { iri: person.iri }, pairedItem: { item: 1 } }]);
		// The introspection, then one request for both items' keys.
		expect(requestCounts(sandbox()).graphql).toBe(2);
	});
});
