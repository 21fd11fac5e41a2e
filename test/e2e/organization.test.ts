import { startSandbox, type OrgDataset, type Sandbox } from '../../dev/emulators';
import { issuedAccessTokens, startForwardingProxy } from '../../dev/n8n/http';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeItems, nodeJson, type RunExecutionData } from '../../dev/n8n/run-data';
import {
	code,
	fanOutWorkflow,
	graphWorkflow,
	manualTrigger,
	node,
	PACKAGE_NODE_TYPES,
	type CredentialRef,
	type WorkflowNode,
} from '../../dev/n8n/workflows';

// Every Archive Organization operation in real n8n against the Organization emulator. All
// operations sit in one fanned-out workflow, so each n8n version costs a few `n8n execute` calls.

const pkg = packageUnderTest();
// 100 rows scale the org data to 1,600 organizations + 320 schools: Return All crosses the
// server's 500-row cap several times.
const ROWS = 100;

type Entity = OrgDataset['organizations'][number];
type Person = OrgDataset['persons'][number];

function byIri<T extends { iri: string }>(items: T[]): T[] {
	return [...items].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

/** What "Basic Fields" returns for an organization-like entity: its scalar fields. */
function basicFields(entity: Entity, withCategory: boolean): Record<string, unknown> {
	const fields: Record<string, unknown> = {
		iri: entity.iri,
		id: entity.id,
		label: entity.label,
		alt_label: entity.alt_label,
		mam_label: entity.mam_label,
		slug: entity.slug,
		homepage: entity.homepage,
		description: entity.description,
		overlay: entity.overlay,
		bzt: entity.bzt,
		iiif: entity.iiif,
		form_url: entity.form_url,
		sector: entity.sector,
	};
	if (withCategory) fields.category = entity.category;
	return fields;
}

/** The password of a credential the token endpoint refuses. */
const WRONG_PASSWORD = 'e2e-wrong-password-5f1c';

function operationNode(
	name: string,
	credential: CredentialRef,
	parameters: Record<string, unknown>,
	onError?: WorkflowNode['onError'],
) {
	return node(name, PACKAGE_NODE_TYPES.organization, parameters, {
		credentials: { archiveOrganizationApi: credential },
		onError,
	});
}

describeIfPackageBuilt(pkg, 'ArchiveOrganization')('Archive Organization in real n8n', () => {
	let sandbox: Sandbox;
	let tokenProxy: Awaited<ReturnType<typeof startForwardingProxy>>;
	let data: OrgDataset;

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: ROWS, seed: 7 });
		data = sandbox.data.org;
		tokenProxy = await startForwardingProxy(sandbox.org.baseUrl);
	});

	afterAll(async () => {
		await tokenProxy?.close();
		await sandbox?.close();
	});

	describe.each(selectedN8nVersions())('n8n %s', (version) => {
		const header: CredentialRef = { id: newCredentialId(), name: 'e2e org (bearer header)' };
		const query: CredentialRef = { id: newCredentialId(), name: 'e2e org (jwtauth query)' };
		const wrongPassword: CredentialRef = {
			id: newCredentialId(),
			name: 'e2e org (wrong password)',
		};
		let n8n: N8nInstance;
		let run: RunExecutionData;
		let exchangesBefore: number;

		beforeAll(async () => {
			exchangesBefore = tokenProxy.exchanges.length;
			n8n = await N8nInstance.create({ version, ...pkg });
			const common = {
				type: 'archiveOrganizationApi',
				authUrl: `${tokenProxy.url}/auth`,
				apiUrl: sandbox.org.apiUrl,
				username: sandbox.org.username,
				password: sandbox.org.password,
			};
			// The query-placement credential reaches the API through the recording proxy too, so the
			// test can see where its token travels.
			const viaProxy = { ...credentialData(common), apiUrl: `${tokenProxy.url}/organisation_v2` };
			await n8n.importCredentials([
				{
					...header,
					type: common.type,
					data: { ...credentialData(common), jwtPlacement: 'header' },
				},
				{ ...query, type: common.type, data: { ...viaProxy, jwtPlacement: 'query' } },
				{
					...wrongPassword,
					type: common.type,
					data: { ...credentialData(common), password: WRONG_PASSWORD },
				},
			]);
			const workflow = operationsWorkflow(header, query, data, wrongPassword);
			await n8n.importWorkflow(workflow);
			run = (await n8n.execute(workflow.id)).run.data;
		});

		afterAll(async () => {
			await n8n?.dispose();
		});

		it('gets a content partner by id (POST, bearer header)', () => {
			const partner = byIri(data.contentPartners)[0];

			expect(nodeJson(run, 'Content Partner by ID')).toEqual([basicFields(partner, false)]);
		});

		it('gets a content partner by iri (GET, jwtauth query parameter)', () => {
			const partner = byIri(data.contentPartners)[1];

			expect(nodeJson(run, 'Content Partner by IRI via GET')).toEqual([
				basicFields(partner, false),
			]);
		});

		it('gets many content partners up to the limit, ordered by iri', () => {
			const expected = byIri(data.contentPartners)
				.slice(0, 7)
				.map((each) => each.id);

			expect(nodeJson(run, 'Content Partners (limit 7)').map((each) => each.id)).toEqual(expected);
		});

		it('returns all organizations across the 500-row cap', () => {
			const ids = nodeJson(run, 'All Organizations').map((each) => each.id);

			expect(data.organizations.length).toBeGreaterThan(1500);
			expect(ids).toEqual(byIri(data.organizations).map((each) => each.id));
		});

		it('filters organizations by label, sector and type', () => {
			const needle = labelNeedle(data);
			const byLabel = byIri(data.organizations).filter((each) =>
				each.label.toLowerCase().includes(needle.toLowerCase()),
			);
			const culturalPartners = byIri(data.organizations).filter(
				(each) => each.sectorValue === 'Cultuur' && each.orgTypes.includes('ContentPartner'),
			);

			expect(byLabel.length).toBeGreaterThan(0);
			expect(nodeJson(run, 'Organizations by Label').map((each) => each.id)).toEqual(
				byLabel.map((each) => each.id),
			);
			expect(nodeJson(run, 'Cultural Content Partners').map((each) => each.id)).toEqual(
				culturalPartners.slice(0, 5).map((each) => each.id),
			);
			expect(nodeJson(run, 'Cultural Content Partners')[0]).toEqual(
				basicFields(culturalPartners[0], true),
			);
		});

		it('returns contact details of schools, flattened for spreadsheets', () => {
			const schools = byIri(data.schools).slice(0, 3);
			const rows = nodeJson(run, 'Schools Flattened');

			expect(rows.map((each) => each.id)).toEqual(schools.map((each) => each.id));
			for (const [index, school] of schools.entries()) {
				const address = school.primary_site!.address;
				const contact =
					school.contact_point.find((each) => each.contact_type === 'primary') ??
					school.contact_point[0];
				expect(rows[index]).toMatchObject({
					address_street: address.street,
					address_postal_code: address.postal_code,
					address_locality: address.locality,
					address_country: address.country,
					contact_email: contact.email,
					contact_telephone: contact.telephone,
				});
				expect(rows[index]).not.toHaveProperty('primary_site');
				// Simplified + Flatten: one flat row, ready for a spreadsheet.
				expect(
					Object.values(rows[index]).filter((value) => typeof value === 'object' && value !== null),
				).toEqual([]);
			}
		});

		it('returns a school with everything: account manager, classification, units and posts', () => {
			const school = byIri(data.schools)[0];
			const [row] = nodeJson(run, 'School Everything');

			expect(row.id).toBe(school.id);
			expect(row.classification).toMatchObject({
				iri: school.classification!.iri,
				label: school.classification!.label,
			});
			expect(row.account_manager).toEqual(
				school.account_manager
					? expect.objectContaining({ iri: school.account_manager.iri })
					: null,
			);
			expect(row.units).toEqual(
				school.units.map((unit): unknown => expect.objectContaining({ iri: unit.iri })),
			);
		});

		it('returns selected fields only, nested paths included', () => {
			const organization = byIri(data.organizations)[2];

			expect(nodeJson(run, 'Organization Selected Fields')).toEqual([
				{
					id: organization.id,
					label: organization.label,
					primary_site: { address: { locality: organization.primary_site!.address.locality } },
				},
			]);
		});

		it('finds persons by family name, with their posts', () => {
			const person = data.accountManagers[0];
			const expected = byIri(data.persons).filter(
				(each) => each.family_name.toLowerCase() === person.family_name.toLowerCase(),
			);
			const rows = nodeJson(run, 'Persons by Family Name');

			expect(rows.map((each) => each.iri)).toEqual(expected.map((each) => each.iri));
			expect(rows.map((each) => (each.holds as unknown[]).length)).toEqual(
				expected.map((each) => each.holds.length),
			);
		});

		it('gets a person by iri with everything', () => {
			const person: Person = data.accountManagers[1];
			const [row] = nodeJson(run, 'Person by IRI');

			expect(row).toMatchObject({
				iri: person.iri,
				given_name: person.given_name,
				family_name: person.family_name,
				email: person.email,
			});
			expect(
				(row.account_manager_of as Array<{ iri: string }>).map((each) => each.iri).sort(),
			).toEqual(person.account_manager_of.map((each) => each.iri).sort());
		});

		it('looks up one organization per input item and pairs each output with its input', () => {
			const wanted = byIri(data.organizations).slice(10, 13);
			const items = nodeItems(run, 'Organization per Item');

			expect(items.map((each) => each.json.id)).toEqual(wanted.map((each) => each.id));
			expect(items.map((each) => each.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		});

		it('outputs nothing for an unknown id when asked to, and an error item otherwise', () => {
			expect(nodeJson(run, 'Unknown Organization (empty)')).toEqual([]);
			expect(nodeJson(run, 'Unknown Organization (error)')).toEqual([
				expect.objectContaining({ error: 'No organization with id "OR-e2e-missing" was found' }),
			]);
		});

		it("names the service once in a refused token's error, without the password", () => {
			const [item] = nodeJson(run, 'Wrong Password (error)');
			expect(item.error).toBe(
				'Organization API: the token endpoint refused the credential\'s "Username" and "Password" (HTTP 401): Invalid client credentials. Check both, for the environment the "Token URL" points to.',
			);
			expect(String(item.errorDescription ?? '')).not.toContain('Organization API');
			expect(JSON.stringify(run)).not.toContain(WRONG_PASSWORD);
		});

		it('fetches a new token when the stored one is rejected', async () => {
			const tokensBefore = issuedAccessTokens(tokenProxy.exchanges).length;
			const rejectedBefore = sandbox.counters.get().org.statuses['401'] ?? 0;
			sandbox.revokeTokens();
			const workflow = fanOutWorkflow('e2e org after revocation', [
				operationNode('Content Partner by ID', header, {
					resource: 'contentPartner',
					operation: 'get',
					contentPartner: { __rl: true, mode: 'id', value: byIri(data.contentPartners)[0].id },
				}),
			]);
			await n8n.importWorkflow(workflow);

			const again = await n8n.execute(workflow.id);

			expect(nodeJson(again.run.data, 'Content Partner by ID').map((each) => each.id)).toEqual([
				byIri(data.contentPartners)[0].id,
			]);
			// The token n8n stored was sent, refused, and replaced: not merely a fresh token per run.
			expect(sandbox.counters.get().org.statuses['401'] ?? 0).toBeGreaterThan(rejectedBefore);
			expect(issuedAccessTokens(tokenProxy.exchanges).length).toBeGreaterThan(tokensBefore);
		});

		it('sends the token as the jwtauth query parameter when the credential says so', () => {
			const apiCalls = tokenProxy.exchanges
				.slice(exchangesBefore)
				.filter((each) => each.url.startsWith('/organisation_v2'));

			expect(apiCalls.length).toBeGreaterThan(0);
			expect(apiCalls.every((each) => /[?&]jwtauth=/.test(each.url))).toBe(true);
			expect(apiCalls.some((each) => each.method === 'GET')).toBe(true);
		});

		it('keeps the password and access tokens out of execution data and logs', async () => {
			const tokens = issuedAccessTokens(tokenProxy.exchanges.slice(exchangesBefore));
			const stored = JSON.stringify(run);
			const credentialsTable = JSON.stringify(
				await n8n.query('SELECT data FROM credentials_entity'),
			);

			expect(tokens.length).toBeGreaterThan(0);
			for (const secret of [sandbox.org.password, ...tokens]) {
				expect(stored).not.toContain(secret);
				expect(credentialsTable).not.toContain(secret);
			}
		});
	});
});

function credentialData(common: Record<string, string>): Record<string, string> {
	const { type: _type, ...data } = common;
	return data;
}

/** A word that occurs in some labels but not all, so the label filter has something to do. */
function labelNeedle(data: OrgDataset): string {
	return byIri(data.organizations)[4].label.split(' ')[0].toUpperCase();
}

function operationsWorkflow(
	header: CredentialRef,
	query: CredentialRef,
	data: OrgDataset,
	wrongPassword: CredentialRef,
) {
	const partners = byIri(data.contentPartners);
	const organizations = byIri(data.organizations);
	const idsPerItem = organizations.slice(10, 13).map((each) => each.id);
	const independent = [
		operationNode('Content Partner by ID', header, {
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: { __rl: true, mode: 'id', value: partners[0].id },
		}),
		operationNode('Content Partner by IRI via GET', query, {
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: { __rl: true, mode: 'url', value: partners[1].iri },
			options: { requestMethod: 'GET' },
		}),
		operationNode('Content Partners (limit 7)', header, {
			resource: 'contentPartner',
			operation: 'getAll',
			returnAll: false,
			limit: 7,
			options: { pageSize: 3 },
		}),
		operationNode('All Organizations', query, {
			resource: 'organization',
			operation: 'getAll',
			returnAll: true,
		}),
		operationNode('Organizations by Label', header, {
			resource: 'organization',
			operation: 'getAll',
			returnAll: true,
			filters: { label: labelNeedle(data) },
		}),
		operationNode('Cultural Content Partners', header, {
			resource: 'organization',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: { sector: 'Cultuur', type: 'ContentPartner' },
		}),
		operationNode('Schools Flattened', header, {
			resource: 'school',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
			output: 'simplified',
			options: { flatten: true, requestMethod: 'GET' },
		}),
		operationNode('School Everything', header, {
			resource: 'school',
			operation: 'get',
			school: { __rl: true, mode: 'id', value: byIri(data.schools)[0].id },
			output: 'raw',
		}),
		operationNode('Organization Selected Fields', header, {
			resource: 'organization',
			operation: 'get',
			organization: { __rl: true, mode: 'url', value: organizations[2].iri },
			output: 'selected',
			fields: ['id', 'label', 'primary_site.address.locality'],
		}),
		operationNode('Persons by Family Name', header, {
			resource: 'person',
			operation: 'getAll',
			returnAll: true,
			filters: { familyName: data.accountManagers[0].family_name.toUpperCase() },
			output: 'selected',
			fields: ['iri', 'given_name', 'family_name', 'holds.role.label', 'holds.post_in.label'],
		}),
		operationNode('Person by IRI', query, {
			resource: 'person',
			operation: 'get',
			person: { __rl: true, mode: 'url', value: data.accountManagers[1].iri },
			output: 'raw',
		}),
		operationNode('Unknown Organization (empty)', header, {
			resource: 'organization',
			operation: 'get',
			organization: { __rl: true, mode: 'id', value: 'OR-e2e-missing' },
		}),
		operationNode(
			'Unknown Organization (error)',
			header,
			{
				resource: 'organization',
				operation: 'get',
				organization: { __rl: true, mode: 'id', value: 'OR-e2e-missing' },
				options: { whenNotFound: 'error' },
			},
			'continueRegularOutput',
		),
		operationNode(
			'Wrong Password (error)',
			wrongPassword,
			{ resource: 'contentPartner', operation: 'getAll', returnAll: false, limit: 1 },
			'continueRegularOutput',
		),
	];
	const trigger = manualTrigger();
	const ids = code(
		'Three IDs',
		`return ${JSON.stringify(idsPerItem)}.map((id) => ({ json: { id } }));`,
	);
	const perItem = operationNode('Organization per Item', header, {
		resource: 'organization',
		operation: 'get',
		organization: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	});
	return graphWorkflow(
		'e2e organization operations',
		[trigger, ...independent, ids, perItem],
		[
			...independent.map((each) => ({ from: trigger.name, to: each.name })),
			{ from: trigger.name, to: ids.name },
			{ from: ids.name, to: perItem.name },
		],
	);
}
