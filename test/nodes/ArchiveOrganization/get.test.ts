import { useSandbox } from '../../../dev/harness/sandboxFixture';
import {
	ORGANIZATION_SCALARS,
	PERSON_SCALARS,
	simplifiedPerson,
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
		expect(jsonOf(result)).toEqual([simplifiedPerson(person)]);
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

	it('the API answers [null] for an unknown iri: with When Not Found "Stop With an Error", the node fails with a clear error', async () => {
		const result = await runOrganizationNode(sandbox(), {
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: { __rl: true, mode: 'url', value: unknownIri },
			options: { whenNotFound: 'error' },
		});
		expect(result.error?.message).toBe(`No content partner with iri "${unknownIri}" was found`);
		expect(result.error?.description).toMatch(/change When Not Found under Options/);
	});

	it('an unknown id (the API answers []) fails the same way', async () => {
		const result = await runOrganizationNode(sandbox(), {
			resource: 'school',
			operation: 'get',
			school: { __rl: true, mode: 'id', value: '999999' },
			options: { whenNotFound: 'error' },
		});
		expect(result.error?.message).toBe('No school with id "999999" was found');
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
				options: { whenNotFound: 'error' },
			},
			{ input: [{ id: 'OR-missing' }, { id: known.id }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{
				json: expect.objectContaining({ error: 'No organization with id "OR-missing" was found' }),
				pairedItem: { item: 0 },
			},
			{ json: { id: known.id }, pairedItem: { item: 1 } },
		]);
	});

	it('by default, a missing entity gives no item, and a hint names it', async () => {
		const person = sandbox().data.org.persons[0];
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'person',
				operation: 'get',
				person: { __rl: true, mode: 'url', value: '={{ $json.iri }}' },
				output: 'selected',
				fields: ['iri'],
			},
			{ input: [{ iri: 'https://data.archive.test/id/person/nobody' }, { iri: person.iri }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([{ json: { iri: person.iri }, pairedItem: { item: 1 } }]);
		expect(result.hints).toEqual([
			'No person with iri "https://data.archive.test/id/person/nobody" was found, so its input item has no output. To get an item with found: false instead, change When Not Found under Options.',
		]);
		// The introspection, then one request for both items' keys.
		expect(requestCounts(sandbox()).graphql).toBe(2);
	});

	it('with When Not Found "Output a Not-Found Item", each item says whether its key was found', async () => {
		const known = sandbox().data.org.organizations[0];
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'organization',
				operation: 'get',
				organization: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				output: 'selected',
				fields: ['id'],
				options: { whenNotFound: 'notFoundItem' },
			},
			{ input: [{ id: 'OR-missing' }, { id: known.id }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{ json: { id: 'OR-missing', found: false }, pairedItem: { item: 0 } },
			{ json: { id: known.id, found: true }, pairedItem: { item: 1 } },
		]);
		expect(result.hints).toEqual([]);
	});
});
