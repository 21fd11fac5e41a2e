import { randomBytes, randomUUID } from 'node:crypto';

/** Builders for the workflow JSON that `n8n import:workflow` takes, so e2e tests stay short. */

export const PACKAGE_NAME = 'n8n-nodes-archive-services';

/** Node types of this package as n8n names them once it is loaded from the user folder. */
export const PACKAGE_NODE_TYPES = {
	aiMetadata: `${PACKAGE_NAME}.archiveAiMetadata`,
	organization: `${PACKAGE_NAME}.archiveOrganization`,
	sipStatusTrigger: `${PACKAGE_NAME}.archiveSipStatusTrigger`,
	aiMetadataTrigger: `${PACKAGE_NAME}.archiveAiMetadataTrigger`,
} as const;

/** Type version of a new SIP Status Trigger node (its defaultVersion); version 1 still loads. */
export const SIP_TRIGGER_VERSION = 2;

/**
 * A poll trigger's Poll Times for a poll every 5 seconds. n8n 2.x allows only a single second in a poll's cron (1.x
 * refuses a `*` there), so one poll time per second of the minute: each is a once-a-minute cron.
 */
export const POLL_EVERY_FIVE_SECONDS = {
	item: Array.from({ length: 12 }, (_, index) => ({
		mode: 'custom',
		cronExpression: `${index * 5} * * * * *`,
	})),
};

export interface CredentialRef {
	id: string;
	name: string;
}

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, CredentialRef>;
	webhookId?: string;
	/** `continueRegularOutput`: a failure becomes an item `{ error }` and the run goes on. */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}

/** `main`, or an AI connection (`ai_languageModel`, `ai_tool`, ...) into an agent. */
type ConnectionType = 'main' | `ai_${string}`;

interface Connection {
	node: string;
	type: ConnectionType;
	index: number;
}

export interface WorkflowJson {
	id: string;
	name: string;
	active: boolean;
	nodes: WorkflowNode[];
	connections: Record<string, Partial<Record<ConnectionType, Connection[][]>>>;
	settings: Record<string, unknown>;
	pinData: Record<string, unknown>;
}

/** n8n's own ids are 16 alphanumerics; imports keep the id we give. */
export function newWorkflowId(): string {
	return randomBytes(12)
		.toString('base64')
		.replace(/[^A-Za-z0-9]/g, 'x')
		.slice(0, 16);
}

export interface NodeOptions {
	typeVersion?: number;
	credentials?: Record<string, CredentialRef>;
	webhookId?: string;
	onError?: WorkflowNode['onError'];
}

/** Any node; position is filled in by `chainWorkflow`. */
export function node(
	name: string,
	type: string,
	parameters: Record<string, unknown>,
	options: NodeOptions = {},
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters,
		...(options.credentials ? { credentials: options.credentials } : {}),
		...(options.webhookId ? { webhookId: options.webhookId } : {}),
		...(options.onError ? { onError: options.onError } : {}),
	};
}

export function manualTrigger(name = 'Manual Trigger'): WorkflowNode {
	return node(name, 'n8n-nodes-base.manualTrigger', {});
}

type FieldValue = string | number | boolean;

/** A Set (Edit Fields) node in manual mode that adds the given fields to every item. */
export function setFields(name: string, fields: Record<string, FieldValue>): WorkflowNode {
	const assignments = Object.entries(fields).map(([fieldName, value]) => ({
		id: randomUUID(),
		name: fieldName,
		value,
		type: typeof value === 'string' ? 'string' : typeof value,
	}));
	return node(
		name,
		'n8n-nodes-base.set',
		{ mode: 'manual', assignments: { assignments }, includeOtherFields: false, options: {} },
		{ typeVersion: 3.4 },
	);
}

/** A Code node running JavaScript once for all items. */
export function code(name: string, jsCode: string): WorkflowNode {
	return node(
		name,
		'n8n-nodes-base.code',
		{ mode: 'runOnceForAllItems', jsCode },
		{ typeVersion: 2 },
	);
}

export interface WebhookOptions {
	path: string;
	httpMethod?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	/** `onReceived` answers at once; `lastNode` waits for the run and answers with its output. */
	responseMode?: 'onReceived' | 'lastNode';
}

/** The built-in Webhook trigger; its production URL is `/webhook/<path>`. */
export function webhookTrigger(name: string, options: WebhookOptions): WorkflowNode {
	return node(
		name,
		'n8n-nodes-base.webhook',
		{
			httpMethod: options.httpMethod ?? 'POST',
			path: options.path,
			responseMode: options.responseMode ?? 'onReceived',
			options: {},
		},
		{ typeVersion: 2, webhookId: randomUUID() },
	);
}

export interface WorkflowOptions {
	id?: string;
	settings?: Record<string, unknown>;
}

/** A workflow whose nodes run one after another, in the order given. */
export function chainWorkflow(
	name: string,
	nodes: WorkflowNode[],
	options: WorkflowOptions = {},
): WorkflowJson {
	assertUniqueNames(nodes);
	const positioned = nodes.map((each, index) => ({
		...each,
		position: [index * 220, 0] as [number, number],
	}));
	const connections: WorkflowJson['connections'] = {};
	for (let index = 0; index + 1 < positioned.length; index++) {
		connections[positioned[index].name] = {
			main: [[{ node: positioned[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return {
		id: options.id ?? newWorkflowId(),
		name,
		active: false,
		nodes: positioned,
		connections,
		settings: { executionOrder: 'v1', ...options.settings },
		pinData: {},
	};
}

/** Manual Trigger followed by the given nodes: the shape `n8n execute` runs. */
export function manualWorkflow(
	name: string,
	nodes: WorkflowNode[],
	options: WorkflowOptions = {},
): WorkflowJson {
	return chainWorkflow(name, [manualTrigger(), ...nodes], options);
}

/** An edge `from` (its output `output`, default 0) -> `to` (its input `input`, default 0), of type `type` (`main`). */
export interface Edge {
	from: string;
	to: string;
	output?: number;
	input?: number;
	type?: ConnectionType;
}

/** A workflow with arbitrary edges; nodes are laid out in a grid so the editor shows them apart. */
export function graphWorkflow(
	name: string,
	nodes: WorkflowNode[],
	edges: Edge[],
	options: WorkflowOptions = {},
): WorkflowJson {
	assertUniqueNames(nodes);
	const names = new Set(nodes.map((each) => each.name));
	const connections: WorkflowJson['connections'] = {};
	for (const { from, to, output = 0, input = 0, type = 'main' } of edges) {
		if (!names.has(from) || !names.has(to))
			throw new Error(`edge ${from} -> ${to} names an unknown node`);
		const outputs = ((connections[from] ??= {})[type] ??= []);
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type, index: input });
	}
	return {
		id: options.id ?? newWorkflowId(),
		name,
		active: false,
		nodes: nodes.map((each, index) => ({
			...each,
			position:
				each.position[0] !== 0 || each.position[1] !== 0 ? each.position : gridPosition(index),
		})),
		connections,
		settings: { executionOrder: 'v1', ...options.settings },
		pinData: {},
	};
}

/**
 * A Manual Trigger fanned out to many independent nodes: one `n8n execute` runs them all, so a
 * whole node family costs one CLI call per n8n version instead of one per operation.
 */
export function fanOutWorkflow(
	name: string,
	nodes: WorkflowNode[],
	options: WorkflowOptions = {},
): WorkflowJson {
	const trigger = manualTrigger();
	return graphWorkflow(
		name,
		[trigger, ...nodes],
		nodes.map((each) => ({ from: trigger.name, to: each.name })),
		options,
	);
}

function gridPosition(index: number): [number, number] {
	const perColumn = 8;
	return [Math.floor(index / perColumn) * 260, (index % perColumn) * 160];
}

function assertUniqueNames(nodes: WorkflowNode[]): void {
	const seen = new Set<string>();
	for (const { name } of nodes) {
		if (seen.has(name)) throw new Error(`duplicate node name in workflow: ${name}`);
		seen.add(name);
	}
}
