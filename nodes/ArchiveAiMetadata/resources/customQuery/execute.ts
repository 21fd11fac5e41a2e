import { OperationTypeNode, parse } from 'graphql';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executePerItem } from '../../../shared/execution';
import { assertValidAgainstSchema } from '../../shared/documents';
import { parameterError, parseJsonObject, requireInteger } from '../../shared/parameters';
import { DEFAULT_MAX_RETRIES, MAX_RETRIES } from '../../shared/session';
import type { AiSession } from '../../shared/session';
import { optionsCollection, retriesOption } from '../views/common';

const show = { show: { resource: ['customQuery'], operation: ['execute'] } };

export const customQueryProperties: INodeProperties[] = [
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		typeOptions: { rows: 10 },
		required: true,
		default: '',
		placeholder: 'query ($limit: Int!) { face_tasks(limit: $limit) { task_id pid status } }',
		description: 'A GraphQL query (no mutations or subscriptions); it is checked against the live schema before it is sent',
		displayOptions: show,
	},
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'json',
		default: '{}',
		description: 'Values of the query\'s variables, as a JSON object',
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
			description: 'Whether to output one item per element of the first root field\'s list instead of one item holding all data',
		},
	]),
];

function parseQuery(ctx: IExecuteFunctions, itemIndex: number, text: string): DocumentNode {
	if (text.trim() === '') throw parameterError(ctx, itemIndex, 'Query', 'must not be empty');
	try {
		return parse(text);
	} catch (error) {
		throw parameterError(ctx, itemIndex, 'Query', `is not valid GraphQL: ${(error as Error).message}`);
	}
}

function chooseOperation(
	ctx: IExecuteFunctions,
	itemIndex: number,
	document: DocumentNode,
	operationName: string,
): OperationDefinitionNode {
	const operations = document.definitions.filter(
		(definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition',
	);
	const operation = operationName
		? operations.find((candidate) => candidate.name?.value === operationName)
		: operations.length === 1
			? operations[0]
			: undefined;
	if (!operation) {
		throw operationName
			? parameterError(ctx, itemIndex, 'Operation Name', `the query has no operation named "${operationName}"`)
			: parameterError(ctx, itemIndex, 'Query', 'holds several operations; set Operation Name to choose one');
	}
	if (operation.operation !== OperationTypeNode.QUERY) {
		throw parameterError(ctx, itemIndex, 'Query', `only queries are allowed, not a ${operation.operation}`);
	}
	return operation;
}

function firstRootKey(operation: OperationDefinitionNode): string | undefined {
	const first = operation.selectionSet.selections.find((selection) => selection.kind === 'Field');
	if (!first || first.kind !== 'Field') return undefined;
	return first.alias?.value ?? first.name.value;
}

/** Custom Query: any read-only GraphQL query with variables, validated against the live schema first. */
export async function executeCustomQuery(session: AiSession): Promise<INodeExecutionData[]> {
	const ctx = session.ctx;
	return await executePerItem(ctx, async (itemIndex) => {
		const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const maxRetries = requireInteger(ctx, itemIndex, 'Max Retries', options.maxRetries ?? DEFAULT_MAX_RETRIES, { min: 0, max: MAX_RETRIES });
		const operationName = String(options.operationName ?? '').trim();
		const document = parseQuery(ctx, itemIndex, String(ctx.getNodeParameter('query', itemIndex, '')));
		const operation = chooseOperation(ctx, itemIndex, document, operationName);
		const variables = parseJsonObject(ctx, itemIndex, 'Variables', ctx.getNodeParameter('variables', itemIndex, '{}'));

		const connection = await session.connect(maxRetries);
		const variableNames = (operation.variableDefinitions ?? []).map((definition) => definition.variable.name.value);
		assertValidAgainstSchema(
			ctx,
			itemIndex,
			connection.schema,
			document,
			variables,
			{ selection: 'Query', variables: Object.fromEntries(variableNames.map((name) => [name, 'Variables'])) },
			operation.name?.value,
		);
		const data = await connection.client.request<IDataObject>(
			{ document, variables, operationName: operation.name?.value },
			itemIndex,
		);
		if (options.splitIntoItems !== true) return [data];
		const key = firstRootKey(operation);
		const value = key === undefined ? undefined : data[key];
		if (Array.isArray(value)) return value.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as IDataObject) : { value: entry }));
		return value === undefined || value === null ? [] : [typeof value === 'object' ? (value as IDataObject) : { value }];
	});
}
