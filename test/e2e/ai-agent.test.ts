import { startSandbox, type AiRecord, type OrgDataset, type Sandbox } from '../../dev/emulators';
import {
	chatRequests,
	startOpenAiEmulator,
	toolResults,
	type OpenAiEmulator,
	type ToolResultMessage,
} from '../../dev/emulators/openai/server';
import { issuedAccessTokens, startForwardingProxy } from '../../dev/n8n/http';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeJson, type RunExecutionData } from '../../dev/n8n/run-data';
import {
	manualTrigger,
	newWorkflowId,
	node,
	PACKAGE_NODE_TYPES,
	type CredentialRef,
	type WorkflowJson,
} from '../../dev/n8n/workflows';

// n8n's own AI Agent with n8n's own OpenAI Chat Model calls both action nodes as tools (issue 25 item 4). The
// chat model's credential points at a scripted OpenAI emulator (dev/emulators/openai/): its first answer calls
// both tools with arguments the test chooses, n8n fills the nodes' `$fromAI` parameters from them, and its
// final answer is built from the tool results it received, so the agent's output proves rows flowed from the
// archive emulators through our nodes and the agent. One `n8n execute` per version.

const pkg = packageUnderTest();
const ROWS = 40;
/** How many face tasks the model asks the AI Metadata tool for. */
const FACE_TASK_LIMIT = 3;

/** Tool node names; n8n offers them to the model as `Find_Organizations` and `Read_Face_Tasks`. */
const ORG_TOOL = 'Find Organizations';
const AI_TOOL = 'Read Face Tasks';
const ORG_TOOL_NAME = 'Find_Organizations';
const AI_TOOL_NAME = 'Read_Face_Tasks';

/** The tool node types n8n generates for `usableAsTool` nodes: the node type + `Tool`. */
const TOOL_TYPES = {
	organization: `${PACKAGE_NODE_TYPES.organization}Tool`,
	aiMetadata: `${PACKAGE_NODE_TYPES.aiMetadata}Tool`,
};

const PROMPT =
	'List the organizations whose label contains the word I gave you and the newest face tasks.';

function byIri<T extends { iri: string }>(items: T[]): T[] {
	return [...items].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

function byTaskId(a: AiRecord, b: AiRecord): number {
	const left = String(a.task_id);
	const right = String(b.task_id);
	return left < right ? -1 : left > right ? 1 : 0;
}

/** A word in some organization labels but not all (as in organization.test.ts). */
function labelNeedle(data: OrgDataset): string {
	return byIri(data.organizations)[4].label.split(' ')[0];
}

/** The rows of a tool result: n8n sends the tool's output items as JSON text. */
function rowsOf(result: ToolResultMessage): Array<Record<string, unknown>> {
	let parsed: unknown;
	try {
		parsed = JSON.parse(result.content);
	} catch {
		return [];
	}
	const list = Array.isArray(parsed) ? parsed : [parsed];
	return list.flatMap((each: unknown) => {
		if (each === null || typeof each !== 'object') return [];
		const json = (each as { json?: unknown }).json;
		const row = (json && typeof json === 'object' ? json : each) as Record<string, unknown>;
		return [row];
	});
}

/** The final answer: the labels and task ids found in the tool results, nothing the test told the model. */
function answerFrom(results: ToolResultMessage[]): string {
	const labels: string[] = [];
	const taskIds: string[] = [];
	for (const result of results) {
		for (const row of rowsOf(result)) {
			if (result.name === ORG_TOOL_NAME && typeof row.label === 'string') labels.push(row.label);
			if (result.name === AI_TOOL_NAME && typeof row.task_id === 'string')
				taskIds.push(row.task_id);
		}
	}
	return `Organizations: ${labels.join(' | ')}. Face tasks: ${taskIds.join(' | ')}.`;
}

describeIfPackageBuilt(
	pkg,
	'ArchiveOrganization',
	'ArchiveAiMetadata',
)('AI Agent with the archive nodes as tools in real n8n', () => {
	let sandbox: Sandbox;
	let orgProxy: Awaited<ReturnType<typeof startForwardingProxy>>;
	let aiProxy: Awaited<ReturnType<typeof startForwardingProxy>>;
	let needle: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: ROWS, seed: 11 });
		needle = labelNeedle(sandbox.data.org);
		orgProxy = await startForwardingProxy(sandbox.org.baseUrl);
		aiProxy = await startForwardingProxy(sandbox.ai.baseUrl);
	});

	afterAll(async () => {
		await orgProxy?.close();
		await aiProxy?.close();
		await sandbox?.close();
	});

	describe.each(selectedN8nVersions())('n8n %s', (version) => {
		const orgCredential: CredentialRef = { id: newCredentialId(), name: 'e2e agent org' };
		const aiCredential: CredentialRef = { id: newCredentialId(), name: 'e2e agent AI' };
		const openAiCredential: CredentialRef = { id: newCredentialId(), name: 'e2e agent OpenAI' };
		let n8n: N8nInstance;
		let model: OpenAiEmulator;
		let run: RunExecutionData;
		let tokensBefore: number;

		beforeAll(async () => {
			tokensBefore = orgProxy.exchanges.length + aiProxy.exchanges.length;
			model = await startOpenAiEmulator({
				script: {
					toolCalls: () => [
						{ name: ORG_TOOL_NAME, arguments: { label: needle } },
						{ name: AI_TOOL_NAME, arguments: { limit: FACE_TASK_LIMIT } },
					],
					answer: answerFrom,
				},
			});
			n8n = await N8nInstance.create({ version, ...pkg });
			await n8n.importCredentials([
				{
					...orgCredential,
					type: 'archiveOrganizationApi',
					data: {
						authUrl: sandbox.org.authUrl.replace(sandbox.org.baseUrl, orgProxy.url),
						apiUrl: sandbox.org.apiUrl,
						username: sandbox.org.username,
						password: sandbox.org.password,
					},
				},
				{
					...aiCredential,
					type: 'archiveAiMetadataApi',
					data: {
						authUrl: sandbox.ai.authUrl.replace(sandbox.ai.baseUrl, aiProxy.url),
						graphqlUrl: sandbox.ai.graphqlUrl,
						email: sandbox.ai.email,
						password: sandbox.ai.password,
					},
				},
				{
					...openAiCredential,
					type: 'openAiApi',
					data: { apiKey: 'sk-e2e-emulator', url: model.baseUrl },
				},
			]);
			const workflow = agentWorkflow(orgCredential, aiCredential, openAiCredential);
			await n8n.importWorkflow(workflow);
			run = (await n8n.execute(workflow.id)).run.data;
		});

		afterAll(async () => {
			await n8n?.dispose();
			await model?.close();
		});

		it("answers with the rows our tools returned, computed from the emulators' data", () => {
			const labels = byIri(sandbox.data.org.organizations)
				.filter((each) => each.label.toLowerCase().includes(needle.toLowerCase()))
				.map((each) => each.label);
			const taskIds = sandbox.data.ai
				.records('face_tasks')
				.sort(byTaskId)
				.slice(0, FACE_TASK_LIMIT)
				.map((each) => String(each.task_id));

			expect(labels.length).toBeGreaterThan(0);
			expect(labels.length).toBeLessThan(sandbox.data.org.organizations.length);
			expect(nodeJson(run, 'AI Agent')).toEqual([
				{ output: `Organizations: ${labels.join(' | ')}. Face tasks: ${taskIds.join(' | ')}.` },
			]);
		});

		it('offers both tools to the model with their $fromAI parameters', () => {
			const [first] = chatRequests(model.requests);
			const tools = (first.tools ?? []).map((each) => each.function!);
			const org = tools.find((each) => each.name === ORG_TOOL_NAME);
			const ai = tools.find((each) => each.name === AI_TOOL_NAME);

			expect(tools.map((each) => each.name).sort()).toEqual([ORG_TOOL_NAME, AI_TOOL_NAME]);
			expect(Object.keys(org?.parameters?.properties ?? {})).toEqual(['label']);
			expect(org?.parameters?.properties?.label.type).toBe('string');
			expect(Object.keys(ai?.parameters?.properties ?? {})).toEqual(['limit']);
			expect(ai?.parameters?.properties?.limit.type).toBe('number');
			expect(org?.description).toContain('organizations');
			expect(ai?.description).toContain('face tasks');
		});

		it('gives the model tool results that hold rows of the archive APIs', () => {
			const requests = chatRequests(model.requests);
			const last = requests[requests.length - 1];
			const results = toolResults(last.messages ?? []);
			const orgRows = results.filter((each) => each.name === ORG_TOOL_NAME).flatMap(rowsOf);
			const aiRows = results.filter((each) => each.name === AI_TOOL_NAME).flatMap(rowsOf);
			const organizationIds = new Set(sandbox.data.org.organizations.map((each) => each.id));
			const faceTaskIds = new Set(
				sandbox.data.ai.records('face_tasks').map((each) => String(each.task_id)),
			);

			expect(requests).toHaveLength(2);
			expect(orgRows.length).toBeGreaterThan(0);
			for (const row of orgRows) {
				expect(organizationIds.has(String(row.id))).toBe(true);
				expect(String(row.label).toLowerCase()).toContain(needle.toLowerCase());
			}
			expect(aiRows).toHaveLength(FACE_TASK_LIMIT);
			for (const row of aiRows) expect(faceTaskIds.has(String(row.task_id))).toBe(true);
		});

		it('never shows the model an access token or a password of our credentials', () => {
			const tokens = issuedAccessTokens([...orgProxy.exchanges, ...aiProxy.exchanges]);
			const secrets = [...tokens, sandbox.org.password, sandbox.ai.password];
			const seen = model.requests
				.map((each) => `${JSON.stringify(each.headers)}\n${each.body}`)
				.join('\n');

			expect(orgProxy.exchanges.length + aiProxy.exchanges.length).toBeGreaterThan(tokensBefore);
			expect(tokens.length).toBeGreaterThan(0);
			for (const secret of secrets) expect(seen).not.toContain(secret);
		});
	});
});

/** Manual Trigger → AI Agent, with the chat model and both tool nodes on the agent's AI inputs. */
function agentWorkflow(
	orgCredential: CredentialRef,
	aiCredential: CredentialRef,
	openAiCredential: CredentialRef,
): WorkflowJson {
	const trigger = { ...manualTrigger(), position: [0, 0] as [number, number] };
	const agent = {
		...node(
			'AI Agent',
			'@n8n/n8n-nodes-langchain.agent',
			{ promptType: 'define', text: PROMPT, options: {} },
			{ typeVersion: 3 },
		),
		position: [220, 0] as [number, number],
	};
	const chatModel = {
		...node(
			'OpenAI Chat Model',
			'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			{ model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
			{ typeVersion: 1.2, credentials: { openAiApi: openAiCredential } },
		),
		position: [100, 200] as [number, number],
	};
	const orgTool = {
		...node(
			ORG_TOOL,
			TOOL_TYPES.organization,
			{
				descriptionType: 'manual',
				toolDescription: 'Finds archive organizations whose label contains a word.',
				resource: 'organization',
				operation: 'getAll',
				returnAll: true,
				filters: {
					label: "={{ $fromAI('label', 'A word the organization labels contain', 'string') }}",
				},
			},
			{ credentials: { archiveOrganizationApi: orgCredential } },
		),
		position: [260, 200] as [number, number],
	};
	const aiTool = {
		...node(
			AI_TOOL,
			TOOL_TYPES.aiMetadata,
			{
				descriptionType: 'manual',
				toolDescription: 'Reads face tasks of the archive AI metadata, in task id order.',
				resource: 'faceTask',
				operation: 'getAll',
				returnAll: false,
				limit: "={{ $fromAI('limit', 'How many face tasks to read', 'number') }}",
			},
			{ credentials: { archiveAiMetadataApi: aiCredential } },
		),
		position: [420, 200] as [number, number],
	};
	const to = (type: string) => ({ [type]: [[{ node: agent.name, type, index: 0 }]] });
	const connections = {
		[trigger.name]: { main: [[{ node: agent.name, type: 'main', index: 0 }]] },
		[chatModel.name]: to('ai_languageModel'),
		[orgTool.name]: to('ai_tool'),
		[aiTool.name]: to('ai_tool'),
	};
	return {
		id: newWorkflowId(),
		name: 'e2e AI Agent with archive tools',
		active: false,
		nodes: [trigger, agent, chatModel, orgTool, aiTool],
		// The AI connection types are not in WorkflowJson's `main`-only connection type.
		connections: connections as unknown as WorkflowJson['connections'],
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}
