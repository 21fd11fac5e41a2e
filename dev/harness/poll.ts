import { Container } from '@n8n/di';
import { LoadOptionsContext, PollContext } from 'n8n-core';
// Not re-exported by n8n-core's index; LoadOptionsContext creates this singleton with a 60 s interval timer.
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import { Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	IDeferredPromise,
	IExecuteResponsePromiseData,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';

import type { TestCredentialsHelper } from './credentialsHelper';
import { credentialsFor, testAdditionalData } from './execute';

export interface PollHarnessOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentials?: TestCredentialsHelper;
	/** Node settings such as `continueOnFail: true`. */
	settings?: Partial<INode>;
	/** Workflow static data as stored in the database, e.g. to start from a known watermark. */
	staticData?: IDataObject;
}

export interface PollOptions {
	/** 'trigger' = a scheduled poll of an active workflow; 'manual' = "Fetch Test Event" in the editor. */
	mode?: 'trigger' | 'manual';
	activation?: WorkflowActivateMode;
	/**
	 * What becomes of a run the poll starts through `__emit` with a done promise: 'finish' (default) settles it as
	 * n8n does when the execution ended; 'hold' leaves it running (the test settles `run`); 'lost' never settles it,
	 * as when n8n could not create the execution; 'refuse' makes `__emit` throw (n8n refusing the data outright).
	 */
	run?: 'finish' | 'hold' | 'lost' | 'refuse';
}

/** A run the poll started through `__emit`, as n8n's ActiveWorkflowManager starts one. */
export interface EmittedRun {
	items: INodeExecutionData[][];
	/** Whether the node asked to be told when the run ends. */
	confirmed: boolean;
	/** The execution ended (successfully or not); resolves once the node has heard of it. */
	finish(): Promise<void>;
	/** n8n reported the run as failed to run; resolves once the node has heard of it. */
	fail(error?: Error): Promise<void>;
}

export interface PollOutcome {
	/** What the poll emitted: its return value, or what it passed to `__emit`; null when there was nothing new. */
	items: INodeExecutionData[][] | null;
	/** The run started through `__emit`, if the poll emitted that way. */
	run?: EmittedRun;
	/** What `poll()` threw, if anything (an active workflow passes it to `__emitError`). */
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	/** The node's static data right after the poll (a copy). */
	nodeStaticData: IDataObject;
}

const NODE_NAME = 'Trigger Under Test';

let nextProcessLife = 1;

/**
 * Runs a polling node's `poll()` through a genuine n8n-core PollContext, the way n8n's ActiveWorkflows does:
 * one Workflow instance lives across the polls of an activation (its static data stays in memory), and the
 * static data is written to the "database" when a poll emits, as n8n's `__emit` does. `restart()` reloads the
 * workflow from that saved copy, like an n8n restart or re-activation.
 */
export class PollHarness {
	/** Static data as n8n last saved it (JSON, as a database row would hold it). */
	savedStaticData: IDataObject;

	readonly node: INode;

	private workflow: Workflow;

	/** Distinguishes this harness's workflow, and each simulated n8n process it runs in, from every other. */
	private processLife = nextProcessLife++;

	private readonly credentials: TestCredentialsHelper;

	constructor(private readonly options: PollHarnessOptions) {
		this.credentials = options.credentials ?? credentialsFor([]);
		const typeName = `test.${options.nodeType.description.name}`;
		const credentialRefs = Object.fromEntries(
			(options.nodeType.description.credentials ?? []).map((credential) => [
				credential.name,
				{ id: `${credential.name}-id`, name: `${credential.name} test` },
			]),
		);
		const version = options.nodeType.description.version;
		this.node = {
			id: 'trigger-under-test',
			name: NODE_NAME,
			type: typeName,
			typeVersion: Array.isArray(version) ? Math.max(...version) : version,
			position: [0, 0],
			parameters: options.parameters,
			credentials: credentialRefs,
			...options.settings,
		};
		this.savedStaticData = structuredClone(options.staticData ?? {});
		this.workflow = this.loadWorkflow();
	}

	/** Changes node parameters between polls, as editing and re-saving the workflow would. */
	setParameters(parameters: INodeParameters): void {
		this.node.parameters = parameters;
		this.workflow = this.loadWorkflow();
	}

	/**
	 * Simulates an n8n restart: in-memory static data is lost, the saved copy is loaded. What the node keeps in process
	 * memory per workflow is left behind too: the reloaded workflow has a new id in this process (n8n's is the same,
	 * but its process is new).
	 */
	restart(): void {
		this.processLife = nextProcessLife++;
		this.workflow = this.loadWorkflow();
	}

	/** The node's static data as the running workflow holds it now. */
	get nodeStaticData(): IDataObject {
		return plainCopy(this.workflow.getStaticData('node', this.node));
	}

	async poll(options: PollOptions = {}): Promise<PollOutcome> {
		const mode = options.mode ?? 'trigger';
		const activation = options.activation ?? (mode === 'manual' ? 'manual' : 'activate');
		let run: EmittedRun | undefined;
		// n8n's ActiveWorkflowManager: save the static data, start the run, settle `donePromise` when it ended.
		const emit = (
			data: INodeExecutionData[][],
			_responsePromise?: IDeferredPromise<IExecuteResponsePromiseData>,
			donePromise?: IDeferredPromise<IRun>,
		) => {
			if (run) throw new Error('The poll emitted twice');
			if (options.run === 'refuse') throw new Error('n8n refused the emitted data');
			this.saveStaticData();
			run = {
				items: data,
				confirmed: donePromise !== undefined,
				finish: async () => {
					donePromise?.resolve({} as IRun);
					await nextTurn();
				},
				fail: async (error = new Error('The execution could not be started')) => {
					donePromise?.reject(error);
					await nextTurn();
				},
			};
		};
		const context =
			mode === 'manual'
				? new PollContext(this.workflow, this.node, this.additionalData(), mode, activation)
				: new PollContext(this.workflow, this.node, this.additionalData(), mode, activation, emit);
		let returned: INodeExecutionData[][] | null = null;
		let error: PollOutcome['error'];
		try {
			returned = await this.options.nodeType.poll!.call(context);
		} catch (thrown) {
			error = thrown as PollOutcome['error'];
		}
		// n8n emits what a scheduled poll returns (with the same save of static data).
		if (mode === 'trigger' && returned !== null) emit(returned);
		const emitted = run;
		if (emitted && (options.run ?? 'finish') === 'finish') await emitted.finish();
		return {
			items: mode === 'manual' ? returned : (emitted?.items ?? null),
			run: emitted,
			error,
			nodeStaticData: this.nodeStaticData,
		};
	}

	/** n8n's saveStaticData: writes the workflow's static data when it changed. */
	private saveStaticData(): void {
		if (this.workflow.staticData.__dataChanged !== true) return;
		this.savedStaticData = plainCopy(this.workflow.staticData);
		this.workflow.staticData.__dataChanged = false;
	}

	/**
	 * Calls one of the node's `methods.loadOptions` through a genuine n8n-core LoadOptionsContext, with the node's
	 * current parameters as the editor would send them.
	 */
	async loadOptions(method: string): Promise<INodePropertyOptions[]> {
		const loader = this.options.nodeType.methods?.loadOptions?.[method];
		if (!loader) throw new Error(`The node has no loadOptions method ${method}`);
		const additionalData = {
			...this.additionalData(),
			currentNodeParameters: this.node.parameters,
		};
		const context = new LoadOptionsContext(this.workflow, this.node, additionalData, 'parameters');
		try {
			return await loader.call(context);
		} finally {
			// n8n stops it on process exit; tests stop it now so jest exits without open handles.
			Container.get(SSHClientsManager).onShutdown();
		}
	}

	private loadWorkflow(): Workflow {
		const nodeType = this.options.nodeType;
		const typeName = this.node.type;
		const nodeTypes: INodeTypes = {
			getByName: (name) => {
				if (name !== typeName) throw new Error(`Unknown node type ${name}`);
				return nodeType;
			},
			getByNameAndVersion: (name) => {
				if (name !== typeName) throw new Error(`Unknown node type ${name}`);
				return nodeType;
			},
			getKnownTypes: () => ({}),
		};
		return new Workflow({
			id: `poll-test-workflow-${this.processLife}`,
			name: 'Poll Test Workflow',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: structuredClone(this.savedStaticData),
			settings: {},
		});
	}

	private additionalData(): IWorkflowExecuteAdditionalData {
		return testAdditionalData(this.credentials);
	}
}

/** Static data as JSON would store it, without n8n's internal change flag. */
function plainCopy(data: IDataObject): IDataObject {
	return JSON.parse(
		JSON.stringify(data, (key, value: unknown) => (key === '__dataChanged' ? undefined : value)),
	) as IDataObject;
}

/** Lets promise callbacks run: what a node does when n8n reports a run's end happens before the next poll. */
function nextTurn(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}
