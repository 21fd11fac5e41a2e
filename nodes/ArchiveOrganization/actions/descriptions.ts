import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_ACTION_CONCURRENCY, MAX_CONCURRENT_REQUESTS } from '../../shared/n8n/limits';
import {
	maxRetriesOption,
	outputParameter,
	returnEmptyWhenNotFoundOption,
	optionsCollection as collection,
	showFor as showForResources,
} from '../../shared/n8n/descriptions';
import { SERVER_PAGE_CAP } from '../api/resources';
import type { OrgResource } from '../api/resources';
import { filterProperties } from './filters';

/** Node parameters shared by all resources, generated per resource so each shows under its own displayOptions. */

type Operation = 'get' | 'getAll';

function showFor(
	resource: OrgResource,
	operation: Operation,
	extra: Record<string, Array<string | boolean>> = {},
) {
	return showForResources([resource.name], [operation], extra);
}

/** Output: Simplified (the common fields), Raw (everything linked) or Selected Fields, and the fields list. */
function outputProperties(resource: OrgResource, operation: Operation): INodeProperties[] {
	return [
		outputParameter(
			showFor(resource, operation),
			resource.hasSites
				? {
						record: resource.singular,
						simplified: 'ID, IRI, label, homepage, sector and the other plain fields',
						raw: 'Every field with the objects it links to: sites, logo, account manager, classification, units and posts',
					}
				: {
						record: resource.singular,
						simplified:
							'Name, e-mail, telephone and IRI, with the posts held (role and organization)',
						raw: 'Every field, posts with their roles and organizations, and the organizations managed',
					},
		),
		{
			displayName: 'Field Names or IDs',
			name: 'fields',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['resource'] },
			displayOptions: showFor(resource, operation, { output: ['selected'] }),
			default: [],
			required: true,
			description:
				'Fields to return, four levels deep, as paths like primary_site.address.locality. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	];
}

function optionsCollection(resource: OrgResource, operation: Operation): INodeProperties {
	const entries: INodeProperties[] = [];
	if (resource.hasSites) {
		entries.push({
			displayName: 'Flatten Address and Contact',
			name: 'flatten',
			type: 'boolean',
			default: false,
			description:
				'Whether to replace the primary site and the contact points by columns for spreadsheets, such as address_locality, contact_email and contact_financial_email',
		});
	}
	entries.push({
		displayName: 'Max Concurrent Requests',
		name: 'maxConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENT_REQUESTS },
		default: DEFAULT_ACTION_CONCURRENCY,
		description:
			operation === 'getAll'
				? 'How many pages to fetch at the same time'
				: 'How many requests to send at the same time; each asks for up to 50 distinct keys of the input items',
	});
	entries.push(maxRetriesOption('action'));
	if (operation === 'getAll') {
		entries.push({
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: SERVER_PAGE_CAP },
			default: SERVER_PAGE_CAP,
			description:
				resource.name === 'person'
					? 'Rows per request'
					: `Rows per request; the server returns at most ${SERVER_PAGE_CAP}`,
		});
	}
	entries.push({
		displayName: 'Request Method',
		name: 'requestMethod',
		type: 'options',
		options: [
			{ name: 'GET', value: 'GET', description: 'Query in the URL' },
			{ name: 'POST', value: 'POST', description: 'Query in a JSON body' },
		],
		default: 'POST',
		description: 'HTTP method for the GraphQL requests',
	});
	if (operation === 'get') {
		entries.push(returnEmptyWhenNotFoundOption(resource.singular));
	}
	return collection(showFor(resource, operation), entries);
}

/** The Get operation's record parameter: a resource locator named after the resource (`organization`, ...). */
export function recordParameterName(resource: OrgResource): string {
	return resource.name;
}

/** What an ID looks like: no spaces, letters, digits and a few separators (OR-abc1234, 012345). */
export const RECORD_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]*$';
/** An IRI is an http(s) URL without spaces. */
export const RECORD_IRI_PATTERN = '^https?://[^\\s/]+/\\S*$';

export function titleOf(resource: OrgResource): string {
	return resource.singular.replace(
		/(^| )(\w)/g,
		(_match, space: string, letter: string) => `${space}${letter.toUpperCase()}`,
	);
}

function recordLocator(resource: OrgResource): INodeProperties {
	const locator: INodeProperties = {
		displayName: titleOf(resource),
		name: recordParameterName(resource),
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: showFor(resource, 'get'),
		description: resource.lookupKeys.includes('id')
			? `The ${resource.singular} to get: pick it, or give its ID or IRI (persistent URI)`
			: `The ${resource.singular} to get: pick it, or give its IRI (persistent URI)`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchRecords', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: resource.name === 'school' ? 'e.g. 012345' : 'e.g. OR-abc1234',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: RECORD_ID_PATTERN,
							errorMessage: 'Not a valid ID: letters, digits, ".", "_", ":" or "-", no spaces',
						},
					},
				],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://data.example.org/id/${resource.name.toLowerCase()}/...`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: RECORD_IRI_PATTERN,
							errorMessage: `Not a valid IRI: the ${resource.singular}'s http(s) URI`,
						},
					},
				],
			},
		],
	};
	// Persons are looked up by IRI only.
	if (!resource.lookupKeys.includes('id')) {
		locator.modes = locator.modes?.filter((mode) => mode.name !== 'id');
	}
	return locator;
}

export function getOperationProperties(resource: OrgResource): INodeProperties[] {
	return [
		recordLocator(resource),
		...outputProperties(resource, 'get'),
		optionsCollection(resource, 'get'),
	];
}

export function getAllOperationProperties(resource: OrgResource): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			displayOptions: showFor(resource, 'getAll'),
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: showFor(resource, 'getAll', { returnAll: [false] }),
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
		},
		...filterProperties(resource),
		...outputProperties(resource, 'getAll'),
		optionsCollection(resource, 'getAll'),
	];
}
