import { Kind, OperationTypeNode, parse, visit } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, OperationDefinitionNode } from 'graphql';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executePerItem } from '../../shared/n8n/executePerItem';
import { assertValidAgainstSchema } from '../api/documents';
import { parameterError, parseJsonObject, readMaxRetries } from '../../shared/n8n/params';
import { optionsCollection, retriesOption } from './common';
import { AiSession } from '../api/viewSource';

const show = { show: { resource: ['customQuery'], operation: ['execute'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		typeOptions: { rows: 10 },
		required: true,
		default: '',
		placeholder: 'e.g. query ($limit: Int!) { face_tasks(limit: $limit) { task_id pid status } }',
		description:
			'A GraphQL query (no mutations or subscriptions); it is checked against the live schema before it is sent',
		displayOptions: show,
	},
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'json',
		default: '{}',
		description: "Values of the query's variables, as a JSON object",
		displayOptions: show,
	},
	optionsCollection(show, [
		retriesOption,
		{
			displayName: 'Operation Name',
			name: 'operationName',
			type: 'string',
			default: '',
			description: 'Which operation to run when the query document holds several',
		},
		{
			displayName: 'Split Into Items',
			name: 'splitIntoItems',
			type: 'boolean',
			default: false,
			description:
				"Whether to output one item per element of the first root field's list instead of one item holding all data",
		},
	]),
];

function parseQuery(ctx: IExecuteFunctions, itemIndex: number, text: string): DocumentNode {
	if (text.trim() === '') throw parameterError(ctx, itemIndex, 'Query', 'must not be empty');
	try {
		return parse(text);
	} catch (error) {
		throw parameterError(
			ctx,
			itemIndex,
			'Query',
			`is not valid GraphQL: ${(error as Error).message}`,
		);
	}
}

function chooseOperation(
	ctx: IExecuteFunctions,
	itemIndex: number,
	document: DocumentNode,
	operationName: string,
): OperationDefinitionNode {
	const operations = document.definitions.filter(
		(definition): definition is OperationDefinitionNode =>
			definition.kind === Kind.OPERATION_DEFINITION,
	);
	const operation = operationName
		? operations.find((candidate) => candidate.name?.value === operationName)
		: operations.length === 1
			? operations[0]
			: undefined;
	if (!operation) {
		throw operationName
			? parameterError(
					ctx,
					itemIndex,
					'Operation Name',
					`the query has no operation named "${operationName}"`,
				)
			: parameterError(
					ctx,
					itemIndex,
					'Query',
					'holds several operations; set Operation Name to choose one',
				);
	}
	if (operation.operation !== OperationTypeNode.QUERY) {
		throw parameterError(
			ctx,
			itemIndex,
			'Query',
			`only queries are allowed, not a ${operation.operation}`,
		);
	}
	return operation;
}

/**
 * The document that is sent: the chosen operation and the fragments it uses (also through other fragments), so the
 * server never sees, parses or logs the document's other operations.
 */
function documentForOperation(
	document: DocumentNode,
	operation: OperationDefinitionNode,
): DocumentNode {
	const fragments = new Map<string, FragmentDefinitionNode>();
	for (const definition of document.definitions) {
		if (definition.kind === Kind.FRAGMENT_DEFINITION)
			fragments.set(definition.name.value, definition);
	}
	const used = new Set<string>();
	const pending: Array<OperationDefinitionNode | FragmentDefinitionNode> = [operation];
	while (pending.length > 0) {
		visit(pending.pop()!, {
			FragmentSpread(spread) {
				const fragment = fragments.get(spread.name.value);
				if (fragment && !used.has(spread.name.value)) {
					used.add(spread.name.value);
					pending.push(fragment);
				}
			},
		});
	}
	return {
		kind: Kind.DOCUMENT,
		definitions: [operation, ...[...used].map((name) => fragments.get(name)!)],
	};
}

function firstRootKey(operation: OperationDefinitionNode): string | undefined {
	const first = operation.selectionSet.selections.find(
		(selection) => selection.kind === Kind.FIELD,
	);
	if (!first || first.kind !== Kind.FIELD) return undefined;
	return first.alias?.value ?? first.name.value;
}

/** Custom Query: any read-only GraphQL query with variables, validated against the live schema first. */
async function executeCustomQuery(session: AiSession): Promise<INodeExecutionData[]> {
	const ctx = session.ctx;
	return await executePerItem(ctx, async (itemIndex) => {
		const options = ctx.getNodeParameter('options', itemIndex, {});
		const maxRetries = readMaxRetries(ctx, itemIndex, options.maxRetries);
		const operationName = String((options.operationName as string | undefined) ?? '').trim();
		const query = ctx.getNodeParameter('query', itemIndex, '') as string;
		const parsed = parseQuery(ctx, itemIndex, String(query));
		const operation = chooseOperation(ctx, itemIndex, parsed, operationName);
		const document = documentForOperation(parsed, operation);
		const variables = parseJsonObject(
			ctx,
			itemIndex,
			'Variables',
			ctx.getNodeParameter('variables', itemIndex, '{}'),
		);

		const connection = await session.connect(maxRetries);
		const variableNames = (operation.variableDefinitions ?? []).map(
			(definition) => definition.variable.name.value,
		);
		assertValidAgainstSchema(
			ctx,
			itemIndex,
			connection.schema,
			document,
			variables,
			{
				selection: 'Query',
				variables: Object.fromEntries(variableNames.map((name) => [name, 'Variables'])),
			},
			operation.name?.value,
		);
		const data = await connection.client.request<IDataObject>(
			{ document, variables, operationName: operation.name?.value },
			itemIndex,
		);
		if (options.splitIntoItems !== true) return [data];
		const key = firstRootKey(operation);
		const value = key === undefined ? undefined : data[key];
		if (Array.isArray(value))
			return value.map((entry: IDataObject[string]) =>
				typeof entry === 'object' && entry !== null ? (entry as IDataObject) : { value: entry },
			);
		return value === undefined || value === null
			? []
			: [typeof value === 'object' ? (value as IDataObject) : { value }];
	});
}

/** The operation's entry point: the router calls it by operation name (ROUTES, shared/n8n/router.ts). @public */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeCustomQuery(new AiSession(this));
}
