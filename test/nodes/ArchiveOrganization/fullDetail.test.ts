import type { Concept, OrgEntity, Person, Post } from '../../../dev/emulators/org/dataset';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import { graphqlPayload, startRecordingProxy } from './recordingProxy';
import {
	ORGANIZATION_SCALARS,
	PERSON_SCALARS,
	jsonOf,
	orgCredentials,
	pick,
	runOrganizationNode,
} from './helpers';

const sandbox = useSandbox({ rows: 200 });

const ORGANIZATION_BASIC = [...ORGANIZATION_SCALARS, 'category'];
const CONCEPT_SCALARS = ['iri', 'label', 'alt_label'];
const CONTACT_FIELDS = ['iri', 'contact_type', 'email', 'telephone'];

const concept = (value: Concept | null) => (value ? pick(value, CONCEPT_SCALARS) : null);
const site = (value: OrgEntity['sites'][number]) => ({
	iri: value.iri,
	address: { ...value.address },
});
const organizationRef = (org: OrgEntity) => pick(org, ['iri', 'id', 'label']);

function accountManagerFull(manager: Person | null) {
	if (!manager) return null;
	return {
		...pick(manager, PERSON_SCALARS),
		holds: manager.holds.map((post) => ({
			iri: post.iri,
			role: concept(post.role),
			post_in: post.post_in.map((org) => pick(org, ORGANIZATION_BASIC)),
		})),
		account_manager_of: manager.account_manager_of.map(organizationRef),
	};
}

function unitFull(unit: OrgEntity) {
	return {
		...pick(unit, ORGANIZATION_SCALARS),
		unit_of: pick(unit.unit_of!, ORGANIZATION_SCALARS),
		logo: unit.logo ? { ...unit.logo } : null,
		account_manager: unit.account_manager ? pick(unit.account_manager, PERSON_SCALARS) : null,
		classification: concept(unit.classification),
		units: unit.units.map((inner) => pick(inner, ORGANIZATION_SCALARS)),
		contact_point: unit.contact_point.map((point) => pick(point, CONTACT_FIELDS)),
		primary_site: unit.primary_site ? site(unit.primary_site) : null,
		sites: unit.sites.map(site),
		posts: unit.posts.map((post) => ({ iri: post.iri, role: concept(post.role) })),
	};
}

const postFull = (post: Post) => ({
	iri: post.iri,
	role: concept(post.role),
	post_in: post.post_in.map((org) => pick(org, ORGANIZATION_BASIC)),
});

describe('Everything', () => {
	it('an organization: units with their parent and their own objects, account manager with posts and managed organizations, full post organizations', async () => {
		const org = sandbox().data.org.organizations.find(
			(entry) =>
				entry.units.some((unit) => unit.posts.length > 0) &&
				entry.posts.length > 0 &&
				entry.account_manager !== null,
		)!;
		expect(org).toBeDefined();
		const result = await runOrganizationNode(sandbox(), {
			resource: 'organization',
			operation: 'get',
			organization: { __rl: true, mode: 'id', value: org.id },
			output: 'raw',
		});
		expect(result.error).toBeUndefined();
		const [row] = jsonOf(result);
		expect(row.units).toEqual(org.units.map(unitFull));
		expect(row.account_manager).toEqual(accountManagerFull(org.account_manager));
		expect(row.posts).toEqual(org.posts.map(postFull));
	});

	it("the operator's account managers hold posts with a role that has narrower roles", async () => {
		const operator = sandbox().data.org.organizations.find((entry) =>
			entry.posts.some((post) => post.role === sandbox().data.org.accountManagerRole),
		)!;
		const result = await runOrganizationNode(sandbox(), {
			resource: 'organization',
			operation: 'get',
			organization: { __rl: true, mode: 'id', value: operator.id },
			output: 'raw',
		});
		expect(result.error).toBeUndefined();
		const posts = jsonOf(result)[0].posts as Array<{ post_in: Array<Record<string, unknown>> }>;
		expect(posts).toEqual(operator.posts.map(postFull));
		expect(posts[0].post_in[0]).toEqual(
			expect.objectContaining({ sector: operator.sector, category: operator.category }),
		);
	});

	it('a person: posts with roles, their broader and narrower roles, and the organizations', async () => {
		const manager = sandbox().data.org.accountManagers[2];
		const result = await runOrganizationNode(sandbox(), {
			resource: 'person',
			operation: 'get',
			person: { __rl: true, mode: 'url', value: manager.iri },
			output: 'raw',
		});
		expect(result.error).toBeUndefined();
		const [row] = jsonOf(result);
		const narrowerRoles = manager.holds[0].role.narrower;
		expect(narrowerRoles.length).toBeGreaterThan(0);
		expect(row).toEqual({
			...pick(manager, PERSON_SCALARS),
			holds: manager.holds.map((post) => ({
				iri: post.iri,
				role: {
					...concept(post.role),
					broader: post.role.broader.map(concept),
					narrower: post.role.narrower.map(concept),
				},
				post_in: post.post_in.map((org) => pick(org, ORGANIZATION_BASIC)),
			})),
			account_manager_of: manager.account_manager_of.map((org) => pick(org, ORGANIZATION_BASIC)),
		});
	});

	it('without introspection, the seed preset asks the real server nothing the seed does not show', async () => {
		const proxy = await startRecordingProxy(sandbox().org.baseUrl, (recorded) =>
			recorded.url.pathname.startsWith('/organisation_v2') &&
			graphqlPayload(recorded).query.includes('__schema')
				? {
						status: 400,
						body: {
							errors: [
								{ message: 'introspection off', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
							],
						},
					}
				: undefined,
		);
		try {
			const org = sandbox().data.org.organizations.find(
				(entry) => entry.units.length > 0 && entry.logo !== null,
			)!;
			const credentials = orgCredentials(sandbox(), { apiUrl: `${proxy.baseUrl}/organisation_v2` });
			const result = await runOrganizationNode(
				sandbox(),
				{
					resource: 'organization',
					operation: 'get',
					organization: { __rl: true, mode: 'id', value: org.id },
					output: 'raw',
				},
				{ credentials },
			);
			expect(result.error).toBeUndefined();
			const [row] = jsonOf(result);
			expect(row).not.toHaveProperty('logo');
			expect((row.units as Array<{ unit_of: { id: string } }>)[0].unit_of.id).toBe(org.id);
			const sent = proxy.requests
				.map((request) => graphqlPayload(request).query)
				.find((query) => query.includes('organizations'));
			expect(sent).not.toMatch(/\blogo\b/);
		} finally {
			await proxy.close();
		}
	});
});
