import { BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { Container } from '@n8n/di';
import { NodeConnectionTypes, Workflow, createRunExecutionData } from 'n8n-workflow';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { TestCredentialsHelper } from './credentialsHelper';

/** A node type that emits the items given in its `items` parameter: the input of the node under test. */
class ItemSource implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Item Source',
		name: 'itemSource',
		group: ['input'],
		version: 1,
		description: 'Emits test items',
		defaults: { name: 'Item Source' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json, index) => ({ json, pairedItem: { item: index } }))];
	}
}

let binaryDataReady: Promise<void> | undefined;

/** n8n-core keeps binary data through a service from its DI container; tests use the in-memory mode. */
async function ensureBinaryDataService(): Promise<void> {
	// Its configuration comes from n8n's defaults (mode "default": binary data kept in memory).
	binaryDataReady ??= Container.get(BinaryDataService).init();
	await binaryDataReady;
}

/**
 * What n8n-core asks of a host while a node runs: the credentials, the instance URLs, and refusals for what tests do
 * not offer (sub-workflows, task runners). `extra` adds or overrides fields (hooks, an execution id).
 */
export function testAdditionalData(
	credentialsHelper: TestCredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		executionId: undefined,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		variables: {},
		setExecutionStatus: () => undefined,
		sendDataToUI: () => undefined,
		logAiEvent: () => undefined,
		executeWorkflow: async () => {
			throw new Error('not supported in tests');
		},
		getRunExecutionData: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('not supported in tests');
		},
		...extra,
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunNodeOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	/** Input items of the node under test; default one empty item. */
	input?: IDataObject[];
	credentials?: TestCredentialsHelper;
	/** Node settings such as `continueOnFail: true` / `onError: 'continueRegularOutput'`. */
	settings?: Partial<INode>;
	typeVersion?: number;
	/** Called once the run started, with a function that cancels it (as stopping an execution in n8n does). */
	onStarted?: (cancel: () => void) => void;
}

export interface NodeRunResult {
	/** Items per output index of the node under test. */
	outputs: INodeExecutionData[][];
	/** The error that stopped the run, if any (as n8n records it). */
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	run: IRun;
	/** The execution hints the node added (n8n shows them above its output). */
	hints: string[];
}

/**
 * Every string reachable from a run's error and outputs, own property names and values included (message, stack,
 * description, context, cause, errorResponse): toJSON shows only some of them, but n8n and loggers read the others.
 * For tests that a secret appears nowhere.
 */
export function everythingOf(result: Pick<NodeRunResult, 'error' | 'outputs'>): string {
	const seen = new Set<unknown>();
	const texts: string[] = [];
	const visit = (value: unknown, depth: number): void => {
		if (typeof value === 'string') texts.push(value);
		if (typeof value !== 'object' || value === null || seen.has(value) || depth > 12) return;
		seen.add(value);
		for (const key of Object.getOwnPropertyNames(value)) {
			texts.push(key);
			visit((value as Record<string, unknown>)[key], depth + 1);
		}
	};
	visit(result.error, 0);
	visit(result.outputs, 0);
	return texts.join('\n');
}

export function credentialsFor(types: ICredentialType[]): TestCredentialsHelper {
	return new TestCredentialsHelper(Object.fromEntries(types.map((type) => [type.name, type])));
}

/**
 * Runs one node inside a real n8n-core WorkflowExecute: Item Source -> node under test, with n8n's own
 * parameter resolution, request helpers (axios), error handling, continueOnFail and pairedItem checks.
 */
export async function runNode(options: RunNodeOptions): Promise<NodeRunResult> {
	await ensureBinaryDataService();
	const nodeType = options.nodeType;
	const typeName = `test.${nodeType.description.name}`;
	const nodeTypes: INodeTypes = {
		getByName: (name) => (name === typeName ? nodeType : new ItemSource()),
		getByNameAndVersion: (name) => (name === typeName ? nodeType : new ItemSource()),
		getKnownTypes: () => ({}),
	};
	const credentialsHelper = options.credentials ?? credentialsFor([]);
	const credentialRefs = Object.fromEntries(
		(nodeType.description.credentials ?? []).map((credential) => [
			credential.name,
			{ id: `${credential.name}-id`, name: `${credential.name} test` },
		]),
	);
	const underTest: INode = {
		id: 'node-under-test',
		name: 'Node Under Test',
		type: typeName,
		typeVersion:
			options.typeVersion ??
			(Array.isArray(nodeType.description.version)
				? Math.max(...nodeType.description.version)
				: nodeType.description.version),
		position: [200, 0],
		parameters: options.parameters,
		credentials: credentialRefs,
		...options.settings,
	};
	const source: INode = {
		id: 'item-source',
		name: 'Item Source',
		type: 'test.itemSource',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.input ?? [{}]) },
	};
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Test Workflow',
		nodes: [source, underTest],
		connections: { [source.name]: { main: [[{ node: underTest.name, type: 'main', index: 0 }]] } },
		active: false,
		nodeTypes,
		staticData: {},
		settings: {},
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test-workflow',
		name: 'Test Workflow',
		nodes: workflow.nodes ? Object.values(workflow.nodes) : [],
		connections: workflow.connectionsBySourceNode,
		active: false,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const additionalData = testAdditionalData(credentialsHelper, {
		hooks,
		executionId: 'test-execution',
	});

	const execute = new WorkflowExecute(additionalData, 'manual', createRunExecutionData());
	const running = execute.run(workflow, source);
	options.onStarted?.(() => running.cancel());
	const run = await running;
	const runData = run.data.resultData.runData[underTest.name];
	const outputs = (runData?.[0]?.data?.main ?? []).map((items) => items ?? []);
	return {
		outputs,
		error: run.data.resultData.error as NodeRunResult['error'],
		run,
		hints: (runData?.[0]?.hints ?? []).map((hint) => hint.message),
	};
}
