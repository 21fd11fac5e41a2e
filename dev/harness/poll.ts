import { Container } from '@n8n/di';
import { LoadOptionsContext, PollContext } from 'n8n-core';
// Not re-exported by n8n-core's index; LoadOptionsContext creates this singleton with a 60 s interval timer.
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import { Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
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
}

export interface PollOutcome {
	/** What `poll()` returned: null when there was nothing new. */
	items: INodeExecutionData[][] | null;
	/** What `poll()` threw, if anything (an active workflow passes it to `__emitError`). */
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	/** The node's static data right after the poll (a copy). */
	nodeStaticData: IDataObject;
}

const NODE_NAME = 'Trigger Under Test';

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

	/** Simulates an n8n restart: in-memory static data is lost, the saved copy is loaded. */
	restart(): void {
		this.workflow = this.loadWorkflow();
	}

	/** The node's static data as the running workflow holds it now. */
	get nodeStaticData(): IDataObject {
		return plainCopy(this.workflow.getStaticData('node', this.node));
	}

	async poll(options: PollOptions = {}): Promise<PollOutcome> {
		const mode = options.mode ?? 'trigger';
		const activation = options.activation ?? (mode === 'manual' ? 'manual' : 'activate');
		const context = new PollContext(
			this.workflow,
			this.node,
			this.additionalData(),
			mode,
			activation,
		);
		let items: INodeExecutionData[][] | null = null;
		let error: PollOutcome['error'];
		try {
			items = await this.options.nodeType.poll!.call(context);
		} catch (thrown) {
			error = thrown as PollOutcome['error'];
		}
		// n8n saves static data when a scheduled poll emits (ActiveWorkflowManager's __emit).
		if (mode === 'trigger' && items !== null && this.workflow.staticData.__dataChanged === true) {
			this.savedStaticData = plainCopy(this.workflow.staticData);
			this.workflow.staticData.__dataChanged = false;
		}
		return { items, error, nodeStaticData: this.nodeStaticData };
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
		const context = new LoadOptionsContext(
			this.workflow,
			this.node,
			additionalData as IWorkflowExecuteAdditionalData,
			'parameters',
		);
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
			id: 'poll-test-workflow',
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
