import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { clearAccessTokenCache } from '../../../credentials/common/accessToken';
import { searchRecords } from '../../../nodes/ArchiveOrganization/methods/listSearch';
import { clearSchemaCache } from '../../../nodes/shared/graphql/schemaCache';
import { startSandbox } from '../../../dev/emulators';
import type { Sandbox } from '../../../dev/emulators';
import { loadOptionsContext, orgCredentials } from './helpers';

/** Organization Get's "From List", against the emulator over real HTTP. */

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rows: 100 });
});
afterAll(async () => {
	await sandbox.close();
	Container.get(SSHClientsManager).onShutdown();
});
beforeEach(() => {
	clearAccessTokenCache();
	clearSchemaCache();
});

function context(resource: string) {
	return loadOptionsContext(orgCredentials(sandbox), { resource, operation: 'get' });
}

const byIri = <T extends { iri: string }>(rows: T[]) =>
	[...rows].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));

describe('From List', () => {
	it('lists organizations in IRI order, named by label and ID, holding the IRI, and pages on', async () => {
		const expected = byIri(sandbox.data.org.organizations);
		const first = await searchRecords.call(context('organization'));
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toEqual({
			name: `${expected[0].label} (${expected[0].id})`,
			value: expected[0].iri,
			url: expected[0].iri,
		});
		expect(first.paginationToken).toBe('100');
		const second = await searchRecords.call(
			context('organization'),
			'',
			String(first.paginationToken),
		);
		expect(second.results.map((item) => item.value)).toEqual(
			expected.slice(100, 200).map((org) => org.iri),
		);
	});

	it("searches organizations with the API's case-insensitive label match", async () => {
		const target = sandbox.data.org.organizations[7];
		const needle = target.label.toUpperCase();
		const expected = byIri(
			sandbox.data.org.organizations.filter((org) =>
				org.label.toLowerCase().includes(needle.toLowerCase()),
			),
		);
		const found = await searchRecords.call(context('organization'), needle);
		expect(found.results.map((item) => item.value)).toEqual(
			expected.slice(0, 100).map((org) => org.iri),
		);
		expect(found.results.map((item) => item.value)).toContain(target.iri);
	});

	it('content partners, which the API cannot search, are matched on label or ID across pages', async () => {
		const partner = byIri(sandbox.data.org.contentPartners).at(-1)!;
		const found = await searchRecords.call(context('contentPartner'), partner.id.toLowerCase());
		expect(found.results).toContainEqual({
			name: `${partner.label} (${partner.id})`,
			value: partner.iri,
			url: partner.iri,
		});
		for (const item of found.results) {
			expect(item.name.toLowerCase()).toContain(partner.id.toLowerCase());
		}
	});

	it('persons are named by given and family name and found by either', async () => {
		const person = sandbox.data.org.persons[3];
		const found = await searchRecords.call(context('person'), person.family_name);
		expect(found.results).toContainEqual({
			name: `${person.given_name} ${person.family_name}`,
			value: person.iri,
			url: person.iri,
		});
	});

	it('a search that matches nothing returns an empty list, not an error', async () => {
		const found = await searchRecords.call(context('school'), 'no school is called this');
		expect(found.results).toEqual([]);
		expect(found.paginationToken).toBeUndefined();
	});
});
