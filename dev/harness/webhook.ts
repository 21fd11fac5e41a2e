/**
 * Drives a trigger node's real `webhook()` through a real HTTP server on loopback, inside a genuine
 * n8n-core `WebhookContext` (the same class n8n uses), and records what the node hands to n8n.
 */
import { mkdirSync } from 'node:fs';
import {
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type {
	IDataObject,
	ICredentialDataDecryptedObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

// n8n-core reads its settings folder on first use; keep it out of the user's home.
const n8nUserFolder = join(tmpdir(), 'n8n-nodes-archive-services-test-n8n');
mkdirSync(n8nUserFolder, { recursive: true });
process.env.N8N_USER_FOLDER ??= n8nUserFolder;

export interface LogEntry {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: unknown;
}

/** Everything n8n's logger received from the node, so tests can check nothing secret is logged. */
export const recordedLogs: LogEntry[] = [];

let n8nReady = false;

interface LoadedN8n {
	WebhookContext: typeof import('n8n-core').WebhookContext;
	ExecuteContext: typeof import('n8n-core').ExecuteContext;
	Workflow: typeof import('n8n-workflow').Workflow;
	createRunExecutionData: typeof import('n8n-workflow').createRunExecutionData;
}

/** Loaded lazily so N8N_USER_FOLDER is set first; swaps n8n's logger for a recording one. */
function loadN8n(): LoadedN8n {
	/* eslint-disable @typescript-eslint/no-require-imports */
	const core = require('n8n-core') as typeof import('n8n-core');
	const workflow = require('n8n-workflow') as typeof import('n8n-workflow');
	if (!n8nReady) {
		const { Container } = require('@n8n/di') as typeof import('@n8n/di');
		const { Logger } = require('@n8n/backend-common') as typeof import('@n8n/backend-common');
		/* eslint-enable @typescript-eslint/no-require-imports */
		const record = (level: LogEntry['level']) => (message: string, metadata?: unknown) => {
			recordedLogs.push({ level, message, metadata });
		};
		const logger = {
			error: record('error'),
			warn: record('warn'),
			info: record('info'),
			debug: record('debug'),
			scoped() {
				return logger;
			},
		};
		Container.set(Logger, logger as unknown as InstanceType<typeof Logger>);
		n8nReady = true;
	}
	return {
		WebhookContext: core.WebhookContext,
		ExecuteContext: core.ExecuteContext,
		Workflow: workflow.Workflow,
		createRunExecutionData: workflow.createRunExecutionData,
	};
}

/** Name of the trigger node in the harness's workflow (its static data lives under `node:<name>`). */
export const TRIGGER_NODE_NAME = 'Trigger Under Test';

export interface WebhookHarnessOptions {
	/** Node type name as n8n would know it, e.g. `n8n-nodes-archive-services.archiveSipStatusTrigger`. */
	nodeTypeName: string;
	parameters?: INodeParameters;
	/** Decrypted credential data, keyed by credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** `webhook` for the production URL, `manual` for "listen for test event". */
	mode?: WorkflowExecuteMode;
	workflowId?: string;
	nodeId?: string;
	/**
	 * `eager` (n8n's usual path: the body is read before the node runs and `rawBody` is set) or
	 * `lazy` (only `readRawBody()` is offered, as n8n does for bodies it did not pre-read).
	 */
	rawBody?: 'eager' | 'lazy';
	/**
	 * The workflow's row in n8n's database, shared by several harnesses as by the webhook processors of one
	 * queue-mode instance: every request works on a fresh copy of its static data, as n8n loads it per delivery,
	 * and a production delivery that changed it saves it back. Without it, one in-memory workflow serves all requests.
	 */
	sharedStaticData?: { staticData: IDataObject };
	/**
	 * What becomes of the execution of delivery number `call` (0-based), where n8n would save and start it:
	 * `run` (default; a promise holds the delivery in that moment); `failToSave` (n8n's WorkflowRunner.run throws, e.g. its database is down: n8n answers 500 and
	 * saves no static data); `crashBeforeSave` (the process dies: no answer, nothing saved); `crashAfterSave` (the
	 * execution is saved, then the process dies before it answers); `failBeforeTrigger` (the execution is saved but
	 * fails before the trigger's `execute()` runs, e.g. a queue-mode worker cannot load it from its database: n8n 1.x
	 * answers 500 and, as with any answer, saves the delivery's static data).
	 */
	executionFault?: (call: number) => ExecutionFault | Promise<ExecutionFault>;
	/**
	 * Runs inside every credential read, before the data is handed over: a test makes reads slow (n8n loads and
	 * decrypts them from its database) or lets one fail.
	 */
	credentialRead?: () => Promise<void>;
	/**
	 * The node type that runs the execution, when it is not the webhook's: a queue-mode worker loads the package in
	 * its own process, so the trigger's `execute()` shares no module memory with the `webhook()` that accepted the
	 * delivery. Its answer (`sendResponse`) still reaches the waiting request, as n8n relays it to the processor.
	 */
	executionNodeType?: INodeType;
}

export type ExecutionFault =
	| 'run'
	| 'failToSave'
	| 'crashBeforeSave'
	| 'crashAfterSave'
	| 'failBeforeTrigger';

export interface RecordedCall {
	result: IWebhookResponseData;
	/** The trigger's outputs in the execution n8n saved for this call (from the node's `execute()` when it has one). */
	execution?: INodeExecutionData[][];
	/** Set when the node's `webhook()` itself threw (n8n would answer 500 then). */
	error?: unknown;
}

export interface WebhookHarness {
	url: string;
	calls: RecordedCall[];
	/**
	 * The trigger's outputs in every execution that was saved, in order: the node's `execute()` result for the items
	 * its `webhook()` handed over (or those items, for a node without `execute()`).
	 */
	runs(): INodeExecutionData[][][];
	/** How often the node read (decrypted) its credentials. */
	credentialReads(): number;
	/** How many requests reached n8n's webhook handling so far (the node's webhook() is called for each). */
	requestsStarted(): number;
	/** How many of those requests' connections closed (answered, or their sender gave up). */
	requestsClosed(): number;
	close(): Promise<void>;
}

type N8nRequest = IncomingMessage & {
	rawBody?: Buffer;
	body?: unknown;
	readRawBody?: () => Promise<void>;
};

async function readStream(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** Mirrors n8n's raw-body reader: the bytes are kept as they came, JSON is parsed only when it can be. */
async function prepareRequest(req: N8nRequest, mode: 'eager' | 'lazy'): Promise<void> {
	req.readRawBody = async () => {
		if (!req.rawBody) req.rawBody = await readStream(req);
	};
	if (mode === 'lazy') return;
	await req.readRawBody();
	try {
		req.body = JSON.parse(req.rawBody.toString('utf8'));
	} catch {
		req.body = {};
	}
}

/** Every harness stands for its own credentials (n8n ids are unique), so process-wide caches keep them apart. */
let harnessSerial = 0;

function buildNode(options: WebhookHarnessOptions, serial: number): INode {
	const credentialNames = Object.keys(options.credentials ?? {});
	return {
		id: options.nodeId ?? 'node-under-test',
		name: TRIGGER_NODE_NAME,
		type: options.nodeTypeName,
		typeVersion: 2,
		position: [0, 0],
		webhookId: 'a6c2bb8e-0000-4000-8000-000000000001',
		parameters: options.parameters ?? {},
		credentials: Object.fromEntries(
			credentialNames.map((name) => [name, { id: `cred-${name}-${serial}`, name }]),
		),
	};
}

export async function startWebhookHarness(
	nodeType: INodeType,
	options: WebhookHarnessOptions,
): Promise<WebhookHarness> {
	const { WebhookContext, ExecuteContext, Workflow, createRunExecutionData } = loadN8n();
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const shared = options.sharedStaticData;
	const serial = ++harnessSerial;
	const newWorkflow = () =>
		new Workflow({
			id: options.workflowId ?? 'workflow-under-test',
			name: 'Harness',
			nodes: [buildNode(options, serial)],
			connections: {},
			active: options.mode !== 'manual',
			nodeTypes,
			...(shared ? { staticData: structuredClone(shared.staticData) } : {}),
		});
	const inMemoryWorkflow = shared ? undefined : newWorkflow();
	const webhookDescription = (nodeType.description.webhooks ?? [])[0];
	const calls: RecordedCall[] = [];
	let credentialReads = 0;

	const credentialsHelper = {
		getDecrypted: async (_data: unknown, _nodeCredentials: unknown, type: string) => {
			credentialReads++;
			await options.credentialRead?.();
			const found = options.credentials?.[type];
			if (!found) throw new Error(`No test credentials of type ${type}`);
			return { ...found };
		},
	};

	let requestsStarted = 0;
	let requestsClosed = 0;

	async function handle(req: N8nRequest, res: ServerResponse): Promise<void> {
		requestsStarted++;
		res.once('close', () => requestsClosed++);
		await prepareRequest(req, options.rawBody ?? 'eager');
		const workflow = inMemoryWorkflow ?? newWorkflow();
		const node = workflow.getNode(TRIGGER_NODE_NAME)!;
		const additionalData = {
			credentialsHelper,
			httpRequest: req,
			httpResponse: res,
			executionId: undefined,
		} as unknown as IWorkflowExecuteAdditionalData;
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: webhookDescription.path,
			webhookDescription,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			options.mode ?? 'webhook',
			webhookData,
			[],
			null,
		);
		const callIndex = calls.length;
		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			calls.push({ result: {}, error });
			if (!res.headersSent) res.writeHead(500).end();
			return;
		}
		const call: RecordedCall = { result };
		calls.push(call);
		// n8n saves static data only for production deliveries, and only when the node changed it.
		const saveStaticData = () => {
			if (shared && context.getMode() === 'webhook' && workflow.staticData.__dataChanged === true) {
				shared.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			}
		};
		const responseMode = workflow.expression.getSimpleParameterValue(
			node,
			webhookDescription.responseMode,
			options.mode ?? 'webhook',
			{},
			undefined,
			'onReceived',
		);
		if (result.noWebhookResponse || !result.workflowData) {
			// The node answered; static data is saved before the run.
			saveStaticData();
			if (!result.noWebhookResponse && !res.headersSent) res.writeHead(200).end();
			if (result.workflowData) {
				call.execution = await execute(workflow, node, result.workflowData);
				saveStaticData();
			}
			return;
		}
		// n8n answers. Static data is saved right before the answer is written (live-webhooks.js), never when the
		// execution could not be saved. responseMode onReceived (as n8n 2.x does it): the webhook's own answer once the
		// execution is saved; responseNode: from the running execution.
		const fault = (await options.executionFault?.(callIndex)) ?? 'run';
		if (fault === 'failToSave') {
			res.writeHead(500).end();
			return;
		}
		if (fault === 'crashBeforeSave') {
			res.destroy();
			return;
		}
		if (fault === 'crashAfterSave') {
			call.execution = result.workflowData;
			res.destroy();
			return;
		}
		if (fault === 'failBeforeTrigger') {
			// The saved execution ends in an error that holds none of the trigger's items.
			saveStaticData();
			if (!res.headersSent) res.writeHead(500).end();
			return;
		}
		const respond = (response: { statusCode?: number; body?: unknown }) => {
			saveStaticData();
			if (res.headersSent) return;
			res.statusCode = response.statusCode ?? 200;
			res.end(
				typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? ''),
			);
		};
		if (responseMode !== 'responseNode') {
			const evaluate = (value: unknown, fallback: unknown) =>
				value === undefined
					? fallback
					: workflow.expression.getSimpleParameterValue(
							node,
							value as string,
							options.mode ?? 'webhook',
							{},
							undefined,
							fallback as string,
						);
			const statusCode = Number(evaluate(webhookDescription.responseCode, 200));
			const noData = evaluate(webhookDescription.responseData, 'firstEntryJson') === 'noData';
			respond({ statusCode, body: noData ? '' : { message: 'Workflow was started' } });
			call.execution = await execute(workflow, node, result.workflowData);
			// The execution's end (workflowExecuteAfter): n8n saves static data the run changed.
			saveStaticData();
			return;
		}
		try {
			call.execution = await execute(workflow, node, result.workflowData, respond);
		} catch {
			if (!res.headersSent) res.writeHead(500).end();
		}
		saveStaticData();
		// An execution that ends without answering is answered by n8n with the webhook's response code.
		if (!res.headersSent) res.writeHead(200).end();
	}

	/** The trigger node's step in the execution: `execute()` with n8n-core's own ExecuteContext. */
	async function execute(
		workflow: InstanceType<LoadedN8n['Workflow']>,
		node: INode,
		workflowData: INodeExecutionData[][],
		respond?: (response: { statusCode?: number; body?: unknown }) => void,
	): Promise<INodeExecutionData[][]> {
		const runner = options.executionNodeType ?? nodeType;
		if (!runner.execute) return workflowData;
		const hooks = {
			runHook: async (name: string, parameters: unknown[]) => {
				if (name === 'sendResponse')
					respond?.(parameters[0] as { statusCode?: number; body?: unknown });
			},
		};
		const additionalData = {
			credentialsHelper,
			hooks,
		} as unknown as IWorkflowExecuteAdditionalData;
		const inputData = { main: workflowData };
		const executeData = { node, data: inputData, source: null };
		const context = new ExecuteContext(
			workflow,
			node,
			additionalData,
			options.mode ?? 'webhook',
			createRunExecutionData(),
			0,
			workflowData[0] ?? [],
			inputData,
			executeData,
			[],
		);
		const outputs = await runner.execute.call(context);
		return outputs as INodeExecutionData[][];
	}

	const server: Server = createServer((req, res) => {
		void handle(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/webhook/${webhookDescription.path}`,
		calls,
		runs: () => calls.flatMap((call) => (call.execution ? [call.execution] : [])),
		credentialReads: () => credentialReads,
		requestsStarted: () => requestsStarted,
		requestsClosed: () => requestsClosed,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve, reject) =>
				server.close((error) => (error ? reject(error) : resolve())),
			);
		},
	};
}

export interface HttpAnswer {
	status: number;
	headers: IncomingMessage['headers'];
	body: string;
}

/**
 * POSTs exact bytes. A header given as an array is sent as repeated header lines. No keep-alive,
 * so nothing stays open after a test.
 */
export async function postRaw(
	url: string,
	body: string | Buffer,
	headers: Record<string, string | string[]>,
	/** Give up after this long and close the connection, as a sender's timeout does. */
	timeoutMs?: number,
): Promise<HttpAnswer> {
	return await new Promise<HttpAnswer>((resolve, reject) => {
		const req = request(url, { method: 'POST', agent: false }, (res) => {
			readStream(res).then(
				(bytes) =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: bytes.toString('utf8'),
					}),
				reject,
			);
		});
		req.on('error', reject);
		if (timeoutMs !== undefined)
			req.setTimeout(timeoutMs, () => req.destroy(new Error('the sender gave up (timeout)')));
		for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
		req.end(body);
	});
}

/** Parses one HTTP/1.1 answer (status line, headers, a body of Content-Length bytes) from the bytes so far. */
function parseAnswer(received: Buffer): HttpAnswer | undefined {
	const headEnd = received.indexOf('\r\n\r\n');
	if (headEnd < 0) return undefined;
	const [statusLine, ...lines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
	const headers: IncomingMessage['headers'] = {};
	for (const line of lines) {
		const colon = line.indexOf(':');
		headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	const length = Number(headers['content-length'] ?? 0);
	const body = received.subarray(headEnd + 4);
	if (body.length < length) return undefined;
	return {
		status: Number(statusLine.split(' ')[1]),
		headers,
		body: body.subarray(0, length).toString('utf8'),
	};
}

/**
 * A POST written byte for byte on a socket: header values go out exactly as given (node's client would re-encode
 * them), and the body may be left unfinished (`endBody: false`) to see whether the server answers before it has
 * read everything. Resolves with the first complete answer.
 */
export async function postBytes(
	url: string,
	headers: Array<[name: string, value: string | Buffer]>,
	body: Buffer,
	{ endBody = true }: { endBody?: boolean } = {},
): Promise<HttpAnswer> {
	const { hostname, port, pathname } = new URL(url);
	const head = Buffer.concat([
		Buffer.from(
			`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: close\r\n`,
			'latin1',
		),
		...headers.map(([name, value]) =>
			Buffer.concat([Buffer.from(`${name}: `, 'latin1'), Buffer.from(value), Buffer.from('\r\n')]),
		),
		Buffer.from('\r\n'),
	]);
	return await new Promise<HttpAnswer>((resolve, reject) => {
		const socket = connect(Number(port), hostname);
		let received = Buffer.alloc(0);
		socket.on('data', (chunk: Buffer) => {
			received = Buffer.concat([received, chunk]);
			const answer = parseAnswer(received);
			if (!answer) return;
			socket.destroy();
			resolve(answer);
		});
		socket.on('error', reject);
		socket.on('close', () =>
			reject(
				new Error(`connection closed before a complete answer: ${received.toString('latin1')}`),
			),
		);
		socket.write(head);
		if (endBody) socket.end(body);
		else socket.write(body);
	});
}

/**
 * Freezes `Date` only: HTTP needs real timers and ticks, while the node reads "now" from `Date.now()`.
 */
export function freezeClock(nowMs: number): void {
	jest.useFakeTimers({
		now: nowMs,
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'requestAnimationFrame',
			'cancelAnimationFrame',
			'requestIdleCallback',
			'cancelIdleCallback',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
}

export function unfreezeClock(): void {
	jest.useRealTimers();
}
