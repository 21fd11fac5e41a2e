import { getNamedType, isEnumType, isInterfaceType, isLeafType, isObjectType } from 'graphql';
import type {
	GraphQLInterfaceType,
	GraphQLNamedType,
	GraphQLObjectType,
	GraphQLSchema,
} from 'graphql';

/** Types whose fields can be selected without fragments. */
type SelectableType = GraphQLObjectType | GraphQLInterfaceType;

export interface RootField {
	type: SelectableType;
	/** Argument name -> GraphQL type as written in a variable definition, e.g. `OrgType` or `Int`. */
	argumentTypes: Map<string, string>;
}

/**
 * Nested types are listed to this depth in the editor (account_manager.holds.role.label), which also stops cycles
 * (Person.holds.post_in...). Deeper paths can still be typed in as an expression.
 */
const FIELD_LIST_DEPTH = 4;

function selectable(type: GraphQLNamedType): SelectableType | undefined {
	return isObjectType(type) || isInterfaceType(type) ? type : undefined;
}

/** The root query field and the type of its list entries, or undefined when the schema lacks the field. */
export function rootFieldOf(schema: GraphQLSchema, rootField: string): RootField | undefined {
	const field = schema.getQueryType()?.getFields()[rootField];
	if (!field) return undefined;
	const type = selectable(getNamedType(field.type));
	if (!type) return undefined;
	const argumentTypes = new Map(
		field.args.map((argument) => [argument.name, String(argument.type)]),
	);
	return { type, argumentTypes };
}

/** Values of the enum an argument takes (e.g. `type: OrgType`), or undefined when it is not an enum. */
export function enumValuesOfArgument(
	schema: GraphQLSchema,
	rootField: string,
	argument: string,
): string[] | undefined {
	const field = schema.getQueryType()?.getFields()[rootField];
	const type = field?.args.find((entry) => entry.name === argument)?.type;
	if (!type) return undefined;
	const named = getNamedType(type);
	return isEnumType(named) ? named.getValues().map((value) => value.name) : undefined;
}

function scalarFieldsOf(type: SelectableType): string[] {
	return Object.values(type.getFields())
		.filter((field) => isLeafType(getNamedType(field.type)))
		.map((field) => field.name);
}

function join(prefix: string, name: string): string {
	return prefix === '' ? name : `${prefix}.${name}`;
}

/**
 * The leaf paths one requested path stands for, or undefined when the schema lacks a part of it. `*` as the last
 * part means every scalar field of that level; a path ending at an object type selects its scalar fields.
 */
function leafPaths(type: SelectableType, parts: string[], prefix: string): string[] | undefined {
	const [part, ...rest] = parts;
	if (part === '*' && rest.length === 0)
		return scalarFieldsOf(type).map((name) => join(prefix, name));
	const field = type.getFields()[part];
	if (!field) return undefined;
	const named = getNamedType(field.type);
	const path = join(prefix, part);
	if (isLeafType(named)) return rest.length === 0 ? [path] : undefined;
	const next = selectable(named);
	if (!next) return undefined;
	if (rest.length > 0) return leafPaths(next, rest, path);
	const scalars = scalarFieldsOf(next).map((name) => join(path, name));
	return scalars.length > 0 ? scalars : undefined;
}

/**
 * Requested paths as leaf paths of the schema, in first-seen order without duplicates. Unknown paths are reported,
 * not thrown: presets skip them (a server may lack a field), custom selections make them an error.
 */
export function resolveFieldPaths(
	root: SelectableType,
	requested: string[],
): { paths: string[]; unknown: string[] } {
	const paths = new Set<string>();
	const unknown: string[] = [];
	for (const path of requested) {
		const leaves = leafPaths(root, path.split('.'), '');
		if (leaves) leaves.forEach((leaf) => paths.add(leaf));
		else unknown.push(path);
	}
	return { paths: [...paths], unknown };
}

/** A leaf path and its GraphQL type, e.g. `String`. */
type FieldOption = { path: string; typeName: string };

/**
 * Every leaf path to FIELD_LIST_DEPTH levels, the choices of the "Fields" parameter: top-level fields first (the
 * ones most people pick), then nested ones, each level by path.
 */
export function listFieldPaths(root: SelectableType, maxDepth = FIELD_LIST_DEPTH): FieldOption[] {
	const options: FieldOption[] = [];
	const visit = (type: SelectableType, prefix: string, depth: number) => {
		for (const field of Object.values(type.getFields())) {
			const named = getNamedType(field.type);
			const path = join(prefix, field.name);
			if (isLeafType(named)) {
				options.push({ path, typeName: String(field.type) });
				continue;
			}
			const next = selectable(named);
			if (next && depth < maxDepth) visit(next, path, depth + 1);
		}
	};
	visit(root, '', 1);
	const depth = (path: string) => path.split('.').length;
	return options.sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
}
