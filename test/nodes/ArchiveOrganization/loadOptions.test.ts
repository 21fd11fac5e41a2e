import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { clearAccessTokenCache } from '../../../credentials/common/accessToken';
import {
	getFields,
	getOrgTypes,
	getSectors,
} from '../../../nodes/ArchiveOrganization/methods/loadOptions';
import { clearSchemaCache } from '../../../nodes/shared/graphql/schemaCache';
import { startSandbox } from '../../../dev/emulators';
import type { Sandbox } from '../../../dev/emulators';
import { ORG_TYPES, SECTORS } from '../../../dev/emulators/org/dataset';
import { loadOptionsContext, orgCredentials, requestCounts } from './helpers';
import { listProblems } from '../englishRules';
import { searchRecords } from '../../../nodes/ArchiveOrganization/methods/listSearch';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rows: 100 });
});
afterAll(async () => {
	await sandbox.close();
	// LoadOptionsContext starts n8n-core's SSH tunnel manager, whose cleanup interval would outlive the tests.
	Container.get(SSHClientsManager).onShutdown();
});
beforeEach(() => {
	clearAccessTokenCache();
	clearSchemaCache();
	sandbox.counters.reset();
});

function liveContext(resource: string) {
	return loadOptionsContext(orgCredentials(sandbox), {
		resource,
		operation: 'getAll',
		output: 'selected',
	});
}

function unreachableContext(resource: string) {
	// Nothing listens on port 9: the schema cannot be read.
	const credentials = orgCredentials(sandbox, { apiUrl: 'http://127.0.0.1:9/organisation_v2' });
	return loadOptionsContext(credentials, {
		resource,
		operation: 'getAll',
		output: 'selected',
	});
}

describe('field lists from the live schema', () => {
	it('lists scalar and nested field paths of content partners, with the live extra `iiif`', async () => {
		const options = await getFields.call(liveContext('contentPartner'));
		const paths = options.map((option) => option.value as string);
		expect(paths).toEqual(
			expect.arrayContaining([
				'iri',
				'id',
				'label',
				'iiif',
				'primary_site.address.locality',
				'contact_point.email',
				'account_manager.email',
				'classification.broader.label',
				'logo.url',
			]),
		);
		expect(paths).not.toContain('category');
		// Depth-limited: Person.holds.post_in... cycles stop at four levels.
		expect(Math.max(...paths.map((path) => path.split('.').length))).toBe(4);
		expect(paths).toEqual(
			expect.arrayContaining([
				'account_manager.holds.post_in.label',
				'account_manager.holds.role.label',
				'units.primary_site.address.locality',
			]),
		);
		expect(paths).not.toContain('account_manager.holds.post_in.posts.iri');
		// Top-level fields first, then deeper ones; each group by path.
		const depth = (path: string) => path.split('.').length;
		expect([...paths].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))).toEqual(paths);
		expect(paths.indexOf('label')).toBeLessThan(20);
		expect(options.find((option) => option.value === 'iri')).toMatchObject({
			name: 'IRI',
			description: 'Field "iri": an identifier',
		});
		expect(options.find((option) => option.value === 'primary_site.address.locality')?.name).toBe(
			'Primary Site › Address › Locality',
		);
		expect(requestCounts(sandbox).graphql).toBe(1);
	});

	it('lists `category` for organizations and person fields for persons', async () => {
		const organization = (await getFields.call(liveContext('organization'))).map(
			(option) => option.value,
		);
		expect(organization).toContain('category');
		const person = (await getFields.call(liveContext('person'))).map((option) => option.value);
		expect(person).toEqual(
			expect.arrayContaining([
				'given_name',
				'family_name',
				'holds.role.label',
				'holds.post_in.label',
				'account_manager_of.id',
				'holds.role.narrower.label',
				'holds.post_in.primary_site.iri',
			]),
		);
		expect(person).not.toContain('label');
	});

	it('falls back to the seed schema when the server cannot be reached', async () => {
		const paths = (await getFields.call(unreachableContext('school'))).map(
			(option) => option.value,
		);
		expect(paths).toEqual(expect.arrayContaining(['id', 'label', 'primary_site.address.locality']));
		// `iiif` exists only on the real service, not in the seed.
		expect(paths).not.toContain('iiif');
	});
});

describe('enum values', () => {
	it('reads OrgType and Sector values from the live schema', async () => {
		expect(
			(await getOrgTypes.call(liveContext('organization'))).map((option) => option.value),
		).toEqual([...ORG_TYPES]);
		const sectors = await getSectors.call(liveContext('organization'));
		expect(sectors.map((option) => option.value)).toEqual([...SECTORS]);
		expect(sectors.find((option) => option.value === 'Regionale_Omroep')?.name).toBe(
			'Regionale Omroep',
		);
		const types = await getOrgTypes.call(liveContext('organization'));
		expect(types.find((option) => option.value === 'ContentPartner')).toMatchObject({
			name: 'Content Partner',
			description: 'ContentPartner',
		});
	});

	it("uses the real service's declared values when the schema cannot be read", async () => {
		expect(
			(await getOrgTypes.call(unreachableContext('organization'))).map((option) => option.value),
		).toEqual([
			'ContentPartner',
			'ServiceProvider',
			'ServiceConsumer',
			'EducationalPartner',
			'DigitizationPartner',
			'ProjectPartner',
			'Other',
		]);
		expect(
			(await getSectors.call(unreachableContext('organization'))).map((option) => option.value),
		).toEqual([
			'Onderwijs',
			'Cultuur',
			'Overheid',
			'Regionale_Omroep',
			'Landelijke_Private_Omroep',
			'Leverancier',
			'Publieke_Omroep',
		]);
	});
});

describe('every list reads as English', () => {
	it.each(['contentPartner', 'organization', 'school', 'person'])(
		'%s: fields, types, sectors and From List',
		async (resource) => {
			const context = liveContext(resource);
			const problems = [
				...listProblems(`${resource} › Field Names or IDs`, await getFields.call(context), true),
				...listProblems(`${resource} › Type Name or ID`, await getOrgTypes.call(context), true),
				...listProblems(`${resource} › Sector Name or ID`, await getSectors.call(context), true),
				...listProblems(
					`${resource} › From List`,
					(await searchRecords.call(context)).results,
					false,
				),
			];
			expect(problems).toEqual([]);
		},
	);
});
