import type { INodeProperties } from 'n8n-workflow';

import { ArchiveOrganization } from '../../../nodes/ArchiveOrganization/ArchiveOrganization.node';
import codex from '../../../nodes/ArchiveOrganization/ArchiveOrganization.node.json';

const node = new ArchiveOrganization();
const { description } = node;
const RESOURCES = ['contentPartner', 'organization', 'person', 'school'];

function operationsOf(resource: string): INodeProperties {
	const property = description.properties.find(
		(entry) =>
			entry.name === 'operation' && entry.displayOptions?.show?.resource?.includes(resource),
	);
	if (!property) throw new Error(`no operation property for ${resource}`);
	return property;
}

describe('node description', () => {
	it('identifies the node and its credential as the package lists them', () => {
		expect(description.name).toBe('archiveOrganization');
		expect(description.displayName).toBe('Archive Organization');
		expect(description.credentials).toEqual([{ name: 'archiveOrganizationApi', required: true }]);
		expect(description.usableAsTool).toBe(true);
		expect(description.documentationUrl).toMatch(
			/^https:\/\/github\.com\/archive-services\/n8n-nodes-archive-services#/,
		);
		expect(codex.node).toBe('n8n-nodes-archive-services.archiveOrganization');
	});

	it.each(RESOURCES)(
		'%s offers Get and Get Many, each with an action and a description for agents',
		(resource) => {
			const options = operationsOf(resource).options as Array<{
				value: string;
				action?: string;
				description?: string;
			}>;
			expect(options.map((option) => option.value)).toEqual(['get', 'getAll']);
			for (const option of options) {
				expect(option.action).toMatch(/^Get (an?|many) /);
				expect(option.description?.length).toBeGreaterThan(20);
			}
		},
	);

	it('Get picks the record with a resource locator named after the resource; persons have no ID mode', () => {
		const locatorFor = (resource: string) =>
			description.properties.find(
				(entry) =>
					entry.name === resource &&
					entry.displayOptions?.show?.resource?.includes(resource) &&
					entry.displayOptions?.show?.operation?.includes('get'),
			);
		for (const resource of RESOURCES) {
			const locator = locatorFor(resource);
			expect(locator?.type).toBe('resourceLocator');
			expect(locator?.required).toBe(true);
			const modes = (locator?.modes ?? []).map((mode) => mode.name);
			expect(modes).toEqual(resource === 'person' ? ['list', 'url'] : ['list', 'id', 'url']);
			expect(locator?.modes?.[0].typeOptions?.searchListMethod).toBe('searchRecords');
		}
		expect(Object.keys(node.methods.listSearch)).toEqual(['searchRecords']);
	});

	it("the locator's ID and URL checks accept the API's keys and refuse text that cannot be one", () => {
		const organization = description.properties.find(
			(entry) => entry.name === 'organization' && entry.type === 'resourceLocator',
		);
		const regexOf = (mode: string) => {
			const validation = organization?.modes?.find((entry) => entry.name === mode)?.validation;
			const first = validation?.[0] as { properties: { regex: string } } | undefined;
			return new RegExp(first?.properties.regex ?? '^$');
		};
		for (const id of ['OR-abc1234', '012345', 'OR-rf5kf25'])
			expect(regexOf('id').test(id)).toBe(true);
		for (const id of ['', 'OR abc', ' OR-1', 'https://x/y', 'a/b'])
			expect(regexOf('id').test(id)).toBe(false);
		expect(regexOf('url').test('https://data.archive.test/id/organization/OR-1')).toBe(true);
		for (const iri of ['OR-1', 'ftp://x/y', 'https://x/a b', 'https://'])
			expect(regexOf('url').test(iri)).toBe(false);
	});

	it('every loadOptions method named in the description exists', () => {
		const named = new Set<string>();
		const visit = (properties: INodeProperties[]) => {
			for (const property of properties) {
				const method = property.typeOptions?.loadOptionsMethod;
				if (method) named.add(method);
				if (Array.isArray(property.options))
					visit(property.options.filter((option): option is INodeProperties => 'type' in option));
			}
		};
		visit(description.properties);
		expect([...named].sort()).toEqual(Object.keys(node.methods.loadOptions).sort());
	});
});

describe('descriptions promise only what the node does', () => {
	function property(resource: string, operation: string, name: string): INodeProperties {
		const found = description.properties.find(
			(entry) =>
				entry.name === name &&
				entry.displayOptions?.show?.resource?.includes(resource) &&
				entry.displayOptions?.show?.operation?.includes(operation),
		);
		if (!found) throw new Error(`no ${name} for ${resource} ${operation}`);
		return found;
	}
	const optionOf = (collection: INodeProperties, name: string) =>
		(collection.options as INodeProperties[]).find((option) => option.name === name);

	it('the person name filters claim no matching rule: the API does not document one, the node only passes the text on', () => {
		const filters = property('person', 'getAll', 'filters');
		for (const [name, argument] of [
			['givenName', 'given_name'],
			['familyName', 'family_name'],
		]) {
			const text = optionOf(filters, name)?.description ?? '';
			expect(text).not.toMatch(/exactly|case-insensitive|case insensitive/i);
			expect(text).toContain(`${argument} argument as written`);
			expect(text).toMatch(/is up to the API/);
		}
	});

	it('Label Contains says what is known of the real service for the label argument', () => {
		const text = optionOf(property('organization', 'getAll', 'filters'), 'label')?.description;
		expect(text).toBe('Only organizations whose label contains this text (case-insensitive)');
	});

	it('Page Size names the 500 cap only where the API has one (persons have none)', () => {
		expect(optionOf(property('person', 'getAll', 'options'), 'pageSize')?.description).not.toMatch(
			/500/,
		);
		for (const resource of ['contentPartner', 'organization', 'school']) {
			expect(optionOf(property(resource, 'getAll', 'options'), 'pageSize')?.description).toMatch(
				/at most 500/,
			);
		}
	});

	it('Get Many for persons promises no posts (the default output has none; Output Detail decides)', () => {
		const options = operationsOf('person').options as Array<{
			value: string;
			description?: string;
		}>;
		expect(options.find((option) => option.value === 'getAll')?.description).not.toMatch(/posts/);
	});
});
