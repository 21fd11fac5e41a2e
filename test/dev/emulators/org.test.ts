import { startSandbox, type Sandbox } from '../../../dev/emulators/index';
import { orgToken, postGraphql } from './testHelpers';

type Row = Record<string, unknown>;

describe('Organization API emulator (Apollo Server 4 semantics)', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 200, seed: 3 });
		token = await orgToken(sandbox, 31536000);
	});
	afterAll(() => sandbox.close());

	const run = async (query: string, variables?: Record<string, unknown>) => {
		const answer = await postGraphql(sandbox.org.apiUrl, token, query, variables);
		if (answer.status !== 200 || answer.body.errors) throw new Error(JSON.stringify(answer.body));
		return answer.body.data as Record<string, Row[] | null>;
	};
	const iris = (rows: Row[] | null) => (rows ?? []).map((row) => row.iri as string);
	const sortedIris = (items: Array<{ iri: string }>) =>
		items.map((item) => item.iri).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

	it('caps organizations at 500 per call and pages by iri when offset is given', async () => {
		const all = sandbox.data.org.organizations;
		expect(all.length).toBeGreaterThanOrEqual(1600);
		const expected = sortedIris(all);
		const collected: string[] = [];
		for (let offset = 0; ; offset += 500) {
			const page = (
				await run('query($o: Int!) { organizations(offset: $o, limit: 1000) { iri } }', {
					o: offset,
				})
			).organizations;
			expect(page!.length).toBeLessThanOrEqual(500);
			if (!page!.length) break;
			collected.push(...iris(page));
		}
		expect(collected).toEqual(expected);
		const noLimit = await run('{ organizations(offset: 0) { iri } }');
		expect(noLimit.organizations).toHaveLength(500);
	});

	it('returns an unordered, call-dependent order without offset', async () => {
		// persons: uncapped, so both calls hold the same set and only the order can differ.
		const first = iris((await run('{ persons { iri } }')).persons);
		const second = iris((await run('{ persons { iri } }')).persons);
		expect(new Set(first)).toEqual(new Set(second));
		expect(first).not.toEqual(second);
		const capped = (await run('{ contentpartners { iri } }')).contentpartners!;
		expect(capped.length).toBe(Math.min(500, sandbox.data.org.contentPartners.length));
	});

	it('persons are not capped', async () => {
		const persons = (
			await run('{ persons(offset: 0) { iri given_name holds { role { label } post_in { id } } } }')
		).persons!;
		expect(persons.length).toBe(sandbox.data.org.persons.length);
		expect(persons.length).toBeGreaterThan(500);
	});

	it('filters: label substring (case-insensitive), type with subtypes, sector, id', async () => {
		const data = await run(
			'{ label: organizations(label: "ARCHIEF g", offset: 0) { iri } provider: organizations(type: ServiceProvider, offset: 0) { iri } sector: organizations(sector: Regionale_Omroep, offset: 0) { iri sector } }',
		);
		const orgs = sandbox.data.org.organizations;
		expect(iris(data.label)).toEqual(
			sortedIris(orgs.filter((org) => org.label.toLowerCase().includes('archief g'))).slice(0, 500),
		);
		const providers = orgs.filter(
			(org) =>
				org.orgTypes.includes('ServiceProvider') || org.orgTypes.includes('DigitizationPartner'),
		);
		expect(providers.some((org) => org.orgTypes.includes('DigitizationPartner'))).toBe(true);
		expect(iris(data.provider)).toEqual(sortedIris(providers).slice(0, 500));
		expect(data.sector!.every((org) => org.sector === 'Regionale Omroep')).toBe(true);
		const cp = sandbox.data.org.contentPartners[0];
		const byId = await run(
			'query($id: String) { contentpartners(id: $id) { id label mam_label } }',
			{ id: cp.id },
		);
		expect(byId.contentpartners).toEqual([{ id: cp.id, label: cp.label, mam_label: cp.mam_label }]);
	});

	it('AI content partners are content partners of the Organization API', () => {
		const cpIds = new Set(sandbox.data.org.contentPartners.map((org) => org.id));
		const aiCps = new Set(
			sandbox.data.ai.records('face_tasks', ['cp']).map((row) => row.cp as string),
		);
		for (const cp of aiCps) expect(cpIds.has(cp)).toBe(true);
	});

	it('schools have no sector and include OR- organizations of sector Onderwijs', async () => {
		const schools = (await run('{ schools(offset: 0, limit: 500) { id sector } }')).schools!;
		const real = schools.filter((school) => !String(school.id).startsWith('OR-'));
		const onderwijs = schools.filter((school) => String(school.id).startsWith('OR-'));
		expect(real.length).toBeGreaterThan(0);
		expect(real.every((school) => school.sector === null)).toBe(true);
		expect(onderwijs.length).toBeGreaterThan(0);
		expect(onderwijs.every((school) => school.sector === 'Onderwijs')).toBe(true);
	});

	it('an unknown iri alone answers [null]', async () => {
		const data = await run(
			'{ organizations(iri: "https://example.org/nope") { iri } persons(iri: "nope") { iri } }',
		);
		expect(data).toEqual({ organizations: [null], persons: [null] });
	});

	it('resolves nested types and the IOrganization interface', async () => {
		const withUnits = sandbox.data.org.organizations.find((org) => org.units.length > 0)!;
		const data = await run(
			`query($iri: String) { organizations(iri: $iri) { id iiif category logo { iri url width height } classification { label broader { label } }
				units { id unit_of { __typename id ... on Organization { category } } } primary_site { address { locality postal_code } } contact_point { contact_type email } } }`,
			{ iri: withUnits.iri },
		);
		const org = data.organizations![0];
		expect(org.id).toBe(withUnits.id);
		expect((org.units as Row[])[0].unit_of).toEqual({
			__typename: withUnits.__typename,
			id: withUnits.id,
			...(withUnits.__typename === 'Organization' ? { category: withUnits.category } : {}),
		});
		expect((org.classification as { broader: Row[] }).broader).toEqual([
			{ label: 'Organisatietype' },
		]);
	});

	it('the data exercises what the presets and Flatten select: units with posts, managers with posts, varied contact points', async () => {
		const org = sandbox.data.org;
		const unit = org.units.find((entry) => entry.posts.length > 0)!;
		const data = await run(
			`query($iri: String) { organizations(iri: $iri) { units { iri unit_of { iri } posts { role { label } post_in { iri } } } } }`,
			{ iri: unit.unit_of!.iri },
		);
		const served = (data.organizations![0].units as Row[]).find((entry) => entry.iri === unit.iri)!;
		expect(served.unit_of).toEqual({ iri: unit.unit_of!.iri });
		expect(served.posts).toEqual(
			unit.posts.map((post) => ({
				role: { label: post.role.label },
				post_in: [{ iri: unit.iri }],
			})),
		);
		const manager = org.accountManagers[0];
		const person = (
			await run(
				'query($iri: String) { persons(iri: $iri) { holds { role { label narrower { label } } post_in { id } } } }',
				{ iri: manager.iri },
			)
		).persons![0];
		expect(person.holds).toEqual([
			{
				role: {
					label: 'Accountmanager',
					narrower: [{ label: 'Accountmanager cultuur' }, { label: 'Accountmanager onderwijs' }],
				},
				post_in: [{ id: manager.holds[0].post_in[0].id }],
			},
		]);
		const types = org.organizations.map((entry) =>
			entry.contact_point.map((point) => point.contact_type),
		);
		expect(types.some((list) => list.length > 0 && !list.includes('primary'))).toBe(true);
		expect(types.some((list) => new Set(list).size < list.length)).toBe(true);
	});

	it('GET works with a preflight header or JSON content type and is refused as CSRF otherwise', async () => {
		const url = `${sandbox.org.apiUrl}?query=${encodeURIComponent('{ contentpartners(limit: 1, offset: 0) { id } }')}&jwtauth=${encodeURIComponent(token)}`;
		const simple = await fetch(url);
		expect(simple.status).toBe(400);
		const preflight = await fetch(url, { headers: { 'apollo-require-preflight': 'true' } });
		expect(preflight.status).toBe(200);
		const json = await fetch(url, { headers: { 'content-type': 'application/json' } });
		expect(((await json.json()) as { data: Row }).data.contentpartners).toHaveLength(1);
	});

	it('parse and validation errors are HTTP 400 with Apollo codes; missing token is 401', async () => {
		const parse = await postGraphql(sandbox.org.apiUrl, token, '{ organizations(');
		expect(parse.status).toBe(400);
		expect(parse.body.errors?.[0].extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
		const validation = await postGraphql(sandbox.org.apiUrl, token, '{ organizations { nope } }');
		expect(validation.status).toBe(400);
		expect(validation.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
		const badVariable = await postGraphql(
			sandbox.org.apiUrl,
			token,
			'query($l: Int) { organizations(limit: $l) { id } }',
			{ l: 'ten' },
		);
		expect(badVariable.status).toBe(400);
		expect(badVariable.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
		expect(
			(await postGraphql(sandbox.org.apiUrl, undefined, '{ organizations { id } }')).status,
		).toBe(401);
	});

	it('sparqlDown: HTTP 200, field null, INTERNAL_SERVER_ERROR', async () => {
		sandbox.faults.set('org', { sparqlDown: true });
		try {
			const answer = await postGraphql(
				sandbox.org.apiUrl,
				token,
				'{ organizations(limit: 1) { id } }',
			);
			expect(answer.status).toBe(200);
			expect(answer.body.data).toEqual({ organizations: null });
			expect(answer.body.errors?.[0]).toEqual(
				expect.objectContaining({
					message: 'Unable to query SPARQL service',
					path: ['organizations'],
					extensions: { code: 'INTERNAL_SERVER_ERROR' },
				}),
			);
		} finally {
			sandbox.faults.clear('org');
		}
	});

	it('answers aliased root fields each on its own: one id or iri per alias, [null] for an unknown iri', async () => {
		const [first, second] = sandbox.data.org.contentPartners;
		const unknownIri = 'https://data.archive.test/id/organization/OR-nobody';
		const data = await run(
			`query($k0: String, $k1: String, $k2: String, $k3: String) {
				k0: contentpartners(id: $k0, offset: 0) { id }
				k1: contentpartners(iri: $k1, offset: 0) { id }
				k2: contentpartners(iri: $k2, offset: 0) { id }
				k3: contentpartners(id: $k3, offset: 0) { id }
			}`,
			{ k0: first.id, k1: second.iri, k2: unknownIri, k3: 'OR-nobody' },
		);
		expect(data).toEqual({ k0: [{ id: first.id }], k1: [{ id: second.id }], k2: [null], k3: [] });
	});

	it('failKeys: the alias asking for a failing key is null with its own error, the others are answered', async () => {
		const [first, failing] = sandbox.data.org.contentPartners;
		sandbox.faults.set('org', { failKeys: { keys: [failing.id], message: 'SPARQL timeout' } });
		try {
			const answer = await postGraphql(
				sandbox.org.apiUrl,
				token,
				'query($a: String, $b: String) { k0: contentpartners(id: $a, offset: 0) { id } k1: contentpartners(id: $b, offset: 0) { id } }',
				{ a: first.id, b: failing.id },
			);
			expect(answer.status).toBe(200);
			expect(answer.body.data).toEqual({ k0: [{ id: first.id }], k1: null });
			expect(answer.body.errors).toEqual([
				expect.objectContaining({
					message: 'SPARQL timeout',
					path: ['k1'],
					extensions: { code: 'INTERNAL_SERVER_ERROR' },
				}),
			]);
		} finally {
			sandbox.faults.clear('org');
		}
	});
});
