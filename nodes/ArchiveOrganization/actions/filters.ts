import type { GraphQLSchema } from 'graphql';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { showFor, textParameter } from '../../shared/n8n/descriptions';
import { parameterError } from '../../shared/n8n/params';
import { enumValuesOfArgument } from '../api/fieldPaths';
import type { OrgResource, OrgResourceName } from '../api/resources';

/**
 * The Filters collection of Get Many: each filter's field in the editor and the query argument it becomes, defined
 * together. Values travel as variables of those arguments.
 */

interface Filter {
	/** The field in the Filters collection. */
	property: INodeProperties;
	/** The root field's argument the value goes to. */
	argument: string;
}

/** A name filter on persons: the documentation does not say how the API compares names (exact or partial, case). */
function personName(name: string, displayName: string, argument: string): Filter {
	return {
		property: textParameter(
			name,
			displayName,
			`Only persons the API matches on this ${displayName.toLowerCase()}. The text goes to the API's ${argument} argument as written (outer spaces removed); how names are compared (exact or partial, case) is up to the API.`,
		),
		argument,
	};
}

const FILTERS = {
	label: {
		property: {
			displayName: 'Label Contains',
			name: 'label',
			type: 'string',
			default: '',
			placeholder: 'e.g. museum',
			description: 'Only organizations whose label contains this text (case-insensitive)',
		},
		argument: 'label',
	},
	sector: {
		property: {
			displayName: 'Sector Name or ID',
			name: 'sector',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getSectors' },
			default: '',
			description:
				'Only organizations active in this sector. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		argument: 'sector',
	},
	type: {
		property: {
			displayName: 'Type Name or ID',
			name: 'type',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getOrgTypes' },
			default: '',
			description:
				'Only organizations of this type; subtypes are included. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		argument: 'type',
	},
	familyName: personName('familyName', 'Family Name', 'family_name'),
	givenName: personName('givenName', 'Given Name', 'given_name'),
} satisfies Record<string, Filter>;

/** The filters each resource offers: the documented query arguments besides iri, id, offset and limit. */
const FILTERS_BY_RESOURCE: Record<OrgResourceName, Filter[]> = {
	contentPartner: [],
	organization: [FILTERS.label, FILTERS.sector, FILTERS.type],
	person: [FILTERS.familyName, FILTERS.givenName],
	school: [],
};

/** The Filters collection of a resource's Get Many; none when the resource has no filter. */
export function filterProperties(resource: OrgResource): INodeProperties[] {
	const filters = FILTERS_BY_RESOURCE[resource.name];
	if (filters.length === 0) return [];
	return [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			displayOptions: showFor([resource.name], ['getAll']),
			default: {},
			options: filters.map((filter) => filter.property),
		},
	];
}

/** The chosen filters as query arguments (argument -> text); an empty field means no filter, not "match ''". */
export function readFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: OrgResource,
): IDataObject {
	const filters = FILTERS_BY_RESOURCE[resource.name];
	const chosen = filters.length > 0 ? ctx.getNodeParameter('filters', itemIndex, {}) : {};
	const arguments_: IDataObject = {};
	for (const { property, argument } of filters) {
		const value = chosen[property.name];
		if (value === undefined || value === null) continue;
		if (typeof value !== 'string') {
			throw parameterError(
				ctx,
				itemIndex,
				property.displayName,
				`must be text, got ${JSON.stringify(value)}`,
			);
		}
		if (value.trim() !== '') arguments_[argument] = value.trim();
	}
	return arguments_;
}

/** Values of enum arguments (Type, Sector) must be values the server declares. */
export function checkEnumFilters(
	ctx: IExecuteFunctions,
	schema: GraphQLSchema,
	resource: OrgResource,
	arguments_: IDataObject,
	itemIndex: number,
): void {
	for (const { property, argument } of FILTERS_BY_RESOURCE[resource.name]) {
		// readFilters writes text only.
		const value = arguments_[argument] as string | undefined;
		if (value === undefined) continue;
		const allowed = enumValuesOfArgument(schema, resource.rootField, argument);
		if (allowed && !allowed.includes(String(value))) {
			throw parameterError(
				ctx,
				itemIndex,
				property.displayName,
				`is ${JSON.stringify(value)}, which the server does not know`,
				`Known values: ${allowed.join(', ')}`,
			);
		}
	}
}
