import { Kind, OperationTypeNode, parse, separateOperations } from 'graphql';
import type { DocumentNode, FieldNode } from 'graphql';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executePerItem } from '../../shared/n8n/executePerItem';
import { assertValidAgainstSchema, operationOf } from '../api/documents';
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

/**
 * The read-only operation of the Query parameter to run, alone with the fragments it uses (graphql-js'
 * separateOperations), so the server never sees, parses or logs the document's other operations.
 */
function readQuery(ctx: IExecuteFunctions, itemIndex: number, operationName: string) {
	const query = ctx.getNodeParameter('query', itemIndex, '') as string;
	const text = String(query);
	if (text.trim() === '') throw parameterError(ctx, itemIndex, 'Query', 'must not be empty');
	let parsed: DocumentNode;
	try {
		parsed = parse(text);
	} catch (error) {
		const problem = `is not valid GraphQL: ${(error as Error).message}`;
		throw parameterError(ctx, itemIndex, 'Query', problem);
	}
	const operation = operationOf(parsed, operationName);
	if (!operation && operationName) {
		const problem = `the query has no operation named "${operationName}"`;
		throw parameterError(ctx, itemIndex, 'Operation Name', problem);
	}
	if (!operation) {
		const problem = 'holds several operations; set Operation Name to choose one';
		throw parameterError(ctx, itemIndex, 'Query', problem);
	}
	if (operation.operation !== OperationTypeNode.QUERY) {
		const problem = `only queries are allowed, not a ${operation.operation}`;
		throw parameterError(ctx, itemIndex, 'Query', problem);
	}
	return { operation, document: separateOperations(parsed)[operation.name?.value ?? ''] };
}

/**
 * Custom Query: any read-only GraphQL query with variables, validated against the live schema first.
 * @public
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const session = new AiSession(this);
	return await executePerItem(this, async (itemIndex) => {
		const options = this.getNodeParameter('options', itemIndex, {});
		const maxRetries = readMaxRetries(this, itemIndex, options.maxRetries);
		const operationName = String((options.operationName as string | undefined) ?? '').trim();
		const { operation, document } = readQuery(this, itemIndex, operationName);
		const variables = parseJsonObject(
			this,
			itemIndex,
			'Variables',
			this.getNodeParameter('variables', itemIndex, '{}'),
		);

		const connection = await session.connect(maxRetries);
		const variableNames = (operation.variableDefinitions ?? []).map(
			(definition) => definition.variable.name.value,
		);
		assertValidAgainstSchema(
			this,
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
		// One item per element of the first root field's list (or for its one value).
		const first = operation.selectionSet.selections.find(
			(selection): selection is FieldNode => selection.kind === Kind.FIELD,
		);
		const value = first ? data[first.alias?.value ?? first.name.value] : undefined;
		const entries = Array.isArray(value)
			? value
			: value === undefined || value === null
				? []
				: [value];
		return entries.map((entry: IDataObject[string]) =>
			typeof entry === 'object' && entry !== null ? (entry as IDataObject) : { value: entry },
		);
	});
}
