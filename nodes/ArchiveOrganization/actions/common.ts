import type { INodeProperties } from 'n8n-workflow';

import {
	maxConcurrencyOption,
	maxRetriesOption,
	outputParameter,
	optionsCollection as collection,
	showFor,
} from '../../shared/n8n/descriptions';
import { keyNames, SERVER_PAGE_CAP } from '../api/resources';
import type { OrgResource } from '../api/resources';
import { whenNotFoundOption } from '../../shared/n8n/notFound';

type Operation = 'get' | 'getAll';

export function outputProperties(resource: OrgResource, operation: Operation): INodeProperties[] {
	return [
		outputParameter(showFor([resource.name], [operation]), {
			record: resource.singular,
			...(resource.hasSites
				? {
						simplified:
							'The fields that hold a value rather than a link: ID, IRI, label, homepage and the like',
						raw: 'Every field with the objects it links to: sites, logo, account manager, classification, units and posts',
					}
				: {
						simplified:
							'IRI, given and family name, e-mail and telephone, with each post held: its role and the ID and label of its organization',
						raw: 'Every field, posts with their roles and organizations, and the organizations managed',
					}),
		}),
		{
			displayName: 'Field Names or IDs',
			name: 'fields',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['resource'] },
			displayOptions: showFor([resource.name], [operation], { output: ['selected'] }),
			default: [],
			required: true,
			description:
				'Fields to return, four levels deep, as paths like primary_site.address.locality. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	];
}

export function optionsCollection(resource: OrgResource, operation: Operation): INodeProperties {
	const flatten: INodeProperties = {
		displayName: 'Flatten Address and Contact',
		name: 'flatten',
		type: 'boolean',
		default: false,
		description:
			'Whether to replace the primary site and the contact points by columns for spreadsheets, such as address_locality, contact_email and contact_financial_email',
	};
	const pageSize: INodeProperties = {
		displayName: 'Page Size',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: SERVER_PAGE_CAP },
		default: SERVER_PAGE_CAP,
		description:
			resource.name === 'person'
				? 'Rows per request. Lower it if the API times out on large pages.'
				: `Rows per request; the server returns at most ${SERVER_PAGE_CAP}. Lower it if the API times out on large pages.`,
	};
	return collection(showFor([resource.name], [operation]), [
		...(resource.hasSites ? [flatten] : []),
		maxConcurrencyOption(
			operation === 'getAll'
				? 'How many pages to fetch at the same time. More than the default helps only over long distances, and asks more of the API.'
				: 'How many requests to send at the same time; each asks for up to 50 distinct keys of the input items. Lower it if the API limits concurrent requests.',
		),
		maxRetriesOption('action'),
		...(operation === 'getAll' ? [pageSize] : []),
		{
			displayName: 'Request Method',
			name: 'requestMethod',
			type: 'options',
			options: [
				{ name: 'GET', value: 'GET', description: 'Query in the URL' },
				{ name: 'POST', value: 'POST', description: 'Query in a JSON body' },
			],
			default: 'POST',
			description:
				'HTTP method for the GraphQL requests. Choose GET only where a proxy in front of the API lets GET through and not POST.',
		},
		...(operation === 'get' ? [whenNotFoundOption(keyNames(resource))] : []),
	]);
}

/** What an ID looks like: no spaces, letters, digits and a few separators (OR-abc1234, 012345). */
export const RECORD_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]*$';
/** An IRI is an http(s) URL without spaces. */
export const RECORD_IRI_PATTERN = '^https?://[^\\s/]+/\\S*$';
