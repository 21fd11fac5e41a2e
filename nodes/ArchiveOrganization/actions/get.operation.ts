import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/n8n/descriptions';
import { executeGrouped } from '../../shared/n8n/executeGrouped';
import { keyNames, RESOURCES, resourceNamed } from '../api/resources';
import type { OrgResource } from '../api/resources';
import { getGroup, shapeOf } from './batchedGet';
import {
	optionsCollection,
	outputProperties,
	RECORD_ID_PATTERN,
	RECORD_IRI_PATTERN,
} from './common';
import { readGetParameters } from './parameters';

/** The record to get: a resource locator named after the resource (`organization`, ...). */
function recordLocator(resource: OrgResource): INodeProperties {
	const locator: INodeProperties = {
		displayName: resource.title,
		name: resource.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: showFor([resource.name], ['get']),
		description: `The ${resource.singular} to get: pick it, or give its ${keyNames(resource)} (persistent URI)`,
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
	if (!resource.lookupKeys.includes('id'))
		locator.modes = locator.modes?.filter((mode) => mode.name !== 'id');
	return locator;
}

export const description: INodeProperties[] = Object.values(RESOURCES).flatMap((resource) => [
	recordLocator(resource),
	...outputProperties(resource, 'get'),
	optionsCollection(resource, 'get'),
]);

/**
 * Get: the entity with each item's id or iri. Items with the same request settings share requests: their distinct
 * keys go out in aliased batches (batchedGet.ts), and each item gets its own rows back. @public
 */
export async function execute(this: IExecuteFunctions, resource: string) {
	const orgResource = resourceNamed(this, resource);
	return await executeGrouped(this, {
		read: (itemIndex) => readGetParameters(this, itemIndex, orgResource),
		groupKey: shapeOf,
		run: async (items) => await getGroup(this, orgResource, items),
	});
}
