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

/** A filter on an enum argument, its values listed by a loadOptions method. */
function enumFilter(argument: string, displayName: string, method: string, only: string): Filter {
	return {
		property: {
			displayName,
			name: argument,
			type: 'options',
			typeOptions: { loadOptionsMethod: method },
			default: '',
			description: `${only}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
		},
		argument,
	};
}

/** The documented query arguments besides iri, id, offset and limit (content partners and schools have none). */
const FILTERS: Partial<Record<OrgResourceName, Filter[]>> = {
	organization: [
		{
			property: {
				...textParameter(
					'label',
					'Label Contains',
					'Only organizations whose label contains this text (case-insensitive)',
				),
				placeholder: 'e.g. museum',
			},
			argument: 'label',
		},
		enumFilter(
			'sector',
			'Sector Name or ID',
			'getSectors',
			'Only organizations active in this sector',
		),
		enumFilter(
			'type',
			'Type Name or ID',
			'getOrgTypes',
			'Only organizations of this type; subtypes are included',
		),
	],
	person: [
		personName('familyName', 'Family Name', 'family_name'),
		personName('givenName', 'Given Name', 'given_name'),
	],
};

export function filterProperties(resource: OrgResource): INodeProperties[] {
	const filters = FILTERS[resource.name] ?? [];
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
	const filters = FILTERS[resource.name] ?? [];
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
	for (const { property, argument } of FILTERS[resource.name] ?? []) {
		// readFilters writes text only.
		const value = arguments_[argument] as string | undefined;
		if (value === undefined) continue;
		const allowed = enumValuesOfArgument(schema, resource.rootField, argument);
		if (allowed && !allowed.includes(value)) {
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
