import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startSandbox, type AiRecord, type OrgDataset, type Sandbox } from '../../dev/emulators';
import {
	chatRequests,
	startOpenAiEmulator,
	type OpenAiEmulator,
	type ToolResultMessage,
} from '../../dev/emulators/openai/server';
import {
	buildFailureEvent,
	buildSuccessEvent,
	generateSecret,
	send,
	type SendResult,
	type StatusEvent,
} from '../../dev/emulators/webhook/sender';
import { aiCredentialImport, orgCredentialImport } from '../../dev/n8n/credentials';
import { parseCsv } from '../../dev/n8n/csv';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance, type ExecutionRecord } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeItems, nodeJson, type RunExecutionData } from '../../dev/n8n/run-data';
import { E2E_SIP_TOLERANCE_SECONDS, waitPastStartRefusal } from '../../dev/n8n/sip-start-refusal';
import { PACKAGE_NODE_TYPES, type CredentialRef, type WorkflowNode } from '../../dev/n8n/workflows';
import { exampleFiles, readExample } from '../../scripts/examples/files';
import {
	AGENT_QUESTION,
	AGENT_TOOLS,
	ENRICHMENT_PIDS,
	EXAMPLE_CREDENTIALS,
	EXAMPLE_WORKFLOW_IDS,
	EXPORT_FOLDER,
	SIP_WEBHOOK_ID,
} from '../../scripts/examples/workflows';

// examples/*.json, the files users import, in real n8n: one instance per line imports the whole folder with n8n's own
// CLI (`n8n import:workflow --separate --input=<dir>`) next to credentials of the names the files refer to (and other
// ids), then runs each example against the emulators and checks its output:
// - enrichment.json, scheduled-export.json, ai-agent.json: `n8n execute` (their Manual Trigger; the export's Schedule
//   Trigger is checked by activating the workflow);
// - sip-status.json: active in `n8n start`, a signed success and a failure event at its Production URL.
// The one change to a file: sip-status.json's trigger gets a 5-s Timestamp Tolerance (its default, 5 minutes, would
// refuse production events for 5 minutes after the start; see dev/n8n/sip-start-refusal.ts).

const pkg = packageUnderTest();
/** `npm start`'s data (seed 42): the PIDs the enrichment and agent examples name are in it. */
const ROWS = 1000;

type ContentPartner = OrgDataset['contentPartners'][number];

const AI_TOOL_NAME = AGENT_TOOLS.ai.replace(/ /g, '_');
const ORG_TOOL_NAME = AGENT_TOOLS.org.replace(/ /g, '_');
/** The PID the agent example's question names. */
const AGENT_PID = /PID (\w+)/.exec(AGENT_QUESTION)![1];

function byText(a: unknown, b: unknown): number {
	const left = String(a);
	const right = String(b);
	return left < right ? -1 : left > right ? 1 : 0;
}

function mainContactEmail(partner: ContentPartner): unknown {
	const main =
		partner.contact_point.find((each) => each.contact_type === 'primary') ??
		partner.contact_point[0];
	return main?.email ?? null;
}

function contentPartnerOf(org: OrgDataset, id: unknown): ContentPartner {
	const partner = org.contentPartners.find((each) => each.id === id);
	if (!partner) throw new Error(`no content partner ${String(id)} in the Organization emulator`);
	return partner;
}

function faceTasksOf(sandbox: Sandbox, pid: string): AiRecord[] {
	return sandbox.data.ai.records('face_tasks').filter((each) => each.pid === pid);
}

/** A PID with exactly one face task, a succeeded one: the success event's Archived Summary is then one item. */
function archivedTask(sandbox: Sandbox): AiRecord {
	const tasks = sandbox.data.ai.records('face_tasks');
	const perPid = new Map<string, number>();
	for (const task of tasks) perPid.set(String(task.pid), (perPid.get(String(task.pid)) ?? 0) + 1);
	const task = tasks
		.filter((each) => each.status === 'succeeded' && perPid.get(String(each.pid)) === 1)
		.sort((a, b) => byText(a.pid, b.pid))[0];
	if (!task) throw new Error('no PID with exactly one succeeded face task in the emulator data');
	return task;
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

/** The scripted model's final answer: what the tool results held, nothing the test told it. */
function agentAnswer(results: ToolResultMessage[]): string {
	const tasks = results.filter((each) => each.name === AI_TOOL_NAME).flatMap(rowsOf);
	const partners = results.filter((each) => each.name === ORG_TOOL_NAME).flatMap(rowsOf);
	const faces = tasks.map((each) => `${String(each.task_id)}: ${String(each.n_faces)} faces`);
	return `Content partner: ${partners.map((each) => String(each.label)).join(' | ')}. Face tasks: ${faces.join(' | ')}.`;
}

interface Delivery {
	event: StatusEvent;
	result: SendResult;
}

describeIfPackageBuilt(
	pkg,
	'ArchiveSipStatusTrigger',
	'ArchiveAiMetadata',
	'ArchiveOrganization',
)('examples/*.json imported with n8n import:workflow and run', () => {
	let sandbox: Sandbox;
	let model: OpenAiEmulator;
	let agentCp: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: ROWS });
		const [agentTask] = faceTasksOf(sandbox, AGENT_PID);
		if (!agentTask) throw new Error(`the agent example's PID ${AGENT_PID} has no face task`);
		agentCp = String(agentTask.cp);
		model = await startOpenAiEmulator({
			script: {
				toolCalls: () => [
					{ name: AI_TOOL_NAME, arguments: { pid: AGENT_PID } },
					{ name: ORG_TOOL_NAME, arguments: { contentPartnerId: agentCp } },
				],
				answer: agentAnswer,
			},
		});
	});

	afterAll(async () => {
		await model?.close();
		await sandbox?.close();
	});

	describe.each(selectedN8nVersions())('n8n %s', (version) => {
		const signingSecret = generateSecret(32);
		// Other ids than the files hold: n8n must link the credentials by name and type.
		const credentials: Record<keyof typeof EXAMPLE_CREDENTIALS, CredentialRef> = {
			ai: { id: newCredentialId(), name: EXAMPLE_CREDENTIALS.ai.name },
			org: { id: newCredentialId(), name: EXAMPLE_CREDENTIALS.org.name },
			sip: { id: newCredentialId(), name: EXAMPLE_CREDENTIALS.sip.name },
			openAi: { id: newCredentialId(), name: EXAMPLE_CREDENTIALS.openAi.name },
		};
		let userFolder: string;
		let importDir: string;
		let n8n: N8nInstance;
		let importedNodes: Map<string, WorkflowNode[]>;
		let enrichment: RunExecutionData;
		let exportRun: RunExecutionData;
		let agent: RunExecutionData;
		let agentRequestsBefore: number;
		let sipExecutions: ExecutionRecord[];
		let success: Delivery;
		let failure: Delivery;

		beforeAll(async () => {
			const started = Date.now();
			// n8n runs in its user folder: the export's relative path lands in <user folder>/.n8n-files, where 2.x writes
			// by default (~/.n8n-files) and this instance is told to allow.
			userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-examples-${version}-`));
			const filesDir = path.join(userFolder, '.n8n-files');
			fs.mkdirSync(path.join(userFolder, EXPORT_FOLDER), { recursive: true });
			n8n = await N8nInstance.create({
				version,
				...pkg,
				userFolder,
				env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir },
			});
			await n8n.importCredentials([
				aiCredentialImport(credentials.ai, sandbox),
				orgCredentialImport(credentials.org, sandbox),
				{
					...credentials.sip,
					type: 'archiveSipWebhookApi',
					data: { signingSecret, additionalSecrets: '' },
				},
				{
					...credentials.openAi,
					type: 'openAiApi',
					data: { apiKey: 'sk-e2e-emulator', url: model.baseUrl },
				},
			]);

			importDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-examples-import-'));
			for (const file of exampleFiles()) {
				const workflow = readExample(file);
				if (workflow.id === EXAMPLE_WORKFLOW_IDS.sip) {
					const trigger = workflow.nodes.find(
						(each) => each.type === PACKAGE_NODE_TYPES.sipStatusTrigger,
					)!;
					trigger.parameters.options = { toleranceSeconds: E2E_SIP_TOLERANCE_SECONDS };
					fs.writeFileSync(path.join(importDir, path.basename(file)), JSON.stringify(workflow));
				} else {
					fs.copyFileSync(file, path.join(importDir, path.basename(file)));
				}
			}
			await n8n.importWorkflowFolder(importDir);
			const rows = await n8n.query<{ id: string; nodes: string }>(
				'SELECT id, nodes FROM workflow_entity',
			);
			importedNodes = new Map(rows.map((row) => [row.id, JSON.parse(row.nodes) as WorkflowNode[]]));

			enrichment = (await n8n.execute(EXAMPLE_WORKFLOW_IDS.enrichment)).run.data;
			exportRun = (await n8n.execute(EXAMPLE_WORKFLOW_IDS.export)).run.data;
			agentRequestsBefore = model.requests.length;
			agent = (await n8n.execute(EXAMPLE_WORKFLOW_IDS.agent)).run.data;

			for (const workflow of exampleFiles().map(readExample)) {
				if (workflow.id === EXAMPLE_WORKFLOW_IDS.sip || workflow.id === EXAMPLE_WORKFLOW_IDS.export)
					await n8n.activate(workflow.id, workflow.name);
			}
			await n8n.start();
			const url = `${n8n.baseUrl}/webhook/${SIP_WEBHOOK_ID}/sip-status`;
			await waitPastStartRefusal(url, signingSecret);
			const successEvent = buildSuccessEvent({ pid: String(archivedTask(sandbox).pid) });
			const failureEvent = buildFailureEvent({ reason: 'checksum mismatch' });
			success = {
				event: successEvent,
				result: await send(url, successEvent, { secrets: [signingSecret] }),
			};
			failure = {
				event: failureEvent,
				result: await send(url, failureEvent, { secrets: [signingSecret] }),
			};
			sipExecutions = await n8n.waitForExecutions(EXAMPLE_WORKFLOW_IDS.sip, 2);
			console.log(`examples in n8n ${version}: ${Math.round((Date.now() - started) / 1000)} s`);
		});

		afterAll(async () => {
			await n8n?.dispose();
			if (userFolder && process.env.E2E_KEEP_USER_FOLDER !== '1')
				fs.rmSync(userFolder, { recursive: true, force: true });
			if (importDir) fs.rmSync(importDir, { recursive: true, force: true });
		});

		function sipExecution(event: StatusEvent): RunExecutionData {
			const found = sipExecutions.find((each) => {
				const outputs = each.data?.resultData.runData['SIP Status']?.[0]?.data?.main ?? [];
				return outputs
					.flatMap((items) => items ?? [])
					.some((item) => item.json.correlation_id === event.data.correlation_id);
			});
			if (!found?.data)
				throw new Error(`no execution of the SIP workflow for ${event.data.correlation_id}`);
			return found.data;
		}

		it('imports every file, linking each node to the credential of the name it refers to', () => {
			const byType: Record<string, CredentialRef> = {
				archiveAiMetadataApi: credentials.ai,
				archiveOrganizationApi: credentials.org,
				archiveSipWebhookApi: credentials.sip,
				openAiApi: credentials.openAi,
			};
			const files = exampleFiles().map(readExample);

			expect(files.map((each) => each.id).sort()).toEqual(
				Object.values(EXAMPLE_WORKFLOW_IDS).sort(),
			);
			for (const workflow of files) {
				const nodes = importedNodes.get(workflow.id);
				expect(nodes?.map((each) => each.name).sort()).toEqual(
					workflow.nodes.map((each) => each.name).sort(),
				);
				for (const each of nodes ?? []) {
					for (const [type, ref] of Object.entries(each.credentials ?? {}))
						expect({ node: each.name, type, ref }).toEqual({
							node: each.name,
							type,
							ref: byType[type],
						});
				}
			}
		});

		describe('sip-status.json', () => {
			it('accepts both signed events and runs once for each', () => {
				expect(success.result.status).toBe(204);
				expect(failure.result.status).toBe(204);
				expect(sipExecutions.map(({ mode, status }) => ({ mode, status }))).toEqual([
					{ mode: 'webhook', status: 'success' },
					{ mode: 'webhook', status: 'success' },
				]);
			});

			it("success output: the PID's AI metadata and its content partner in the Archived Summary", () => {
				const task = archivedTask(sandbox);
				const partner = contentPartnerOf(sandbox.data.org, task.cp);
				const data = sipExecution(success.event);

				expect(nodeJson(data, 'Archived Summary')).toEqual([
					{
						pid: task.pid,
						task_id: task.task_id,
						// A field added in Edit Fields is a String unless its type is changed.
						n_faces: String(task.n_faces),
						content_partner: partner.label,
						contact_email: mainContactEmail(partner),
					},
				]);
				expect(data.resultData.runData['Failure Summary']).toBeUndefined();
			});

			it('failure output: the Failure Summary of the event', () => {
				const data = sipExecution(failure.event);
				const [received] = nodeJson(data, 'SIP Status', { output: 1 });

				expect(nodeJson(data, 'Failure Summary')).toEqual([
					{
						correlation_id: failure.event.data.correlation_id,
						reason: 'sipin.sip-2.validate -- checksum mismatch',
						received_at: received.received_at,
					},
				]);
				expect(data.resultData.runData['AI Metadata for PID']).toBeUndefined();
			});
		});

		describe('scheduled-export.json', () => {
			it('writes one CSV with every succeeded speech task, newest first', () => {
				const dir = path.join(userFolder, EXPORT_FOLDER);
				const files = fs.readdirSync(dir);
				const succeeded = sandbox.data.ai
					.records('speech_tasks')
					.filter((each) => each.status === 'succeeded');

				expect(files).toEqual([expect.stringMatching(/^speech-tasks-\d{8}-\d{6}\.csv$/)]);
				// Convert to File may start the CSV with a byte order mark (2.x does), for spreadsheet programs.
				const text = fs.readFileSync(path.join(dir, files[0]), 'utf8').replace(/^\uFEFF/, '');
				const [header, ...rows] = parseCsv(text).filter((row) => row.join('') !== '');
				const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
				const times = column('processed_time').map((each) => Date.parse(each));

				expect(succeeded.length).toBeGreaterThan(100);
				expect(header).toEqual(
					expect.arrayContaining(['task_id', 'pid', 'cp', 'status', 'processed_time', 'title']),
				);
				expect(column('task_id').sort()).toEqual(
					succeeded.map((each) => String(each.task_id)).sort(),
				);
				expect(new Set(column('status'))).toEqual(new Set(['succeeded']));
				expect(times.every((time, index) => index === 0 || times[index - 1] >= time)).toBe(true);
				expect(nodeItems(exportRun, 'To CSV')[0].binary?.data).toMatchObject({
					fileName: 'speech-tasks.csv',
				});
			});

			it('is activated by n8n start with its Schedule Trigger', () => {
				// start() waited for the activation (1.x: "Activated workflow" in the log; 2.x: the publication outbox).
				expect(n8n.serverLog()).not.toMatch(/Issue on initial workflow activation/);
				// Both triggers feed the Get Many: the manual run reads the tasks once.
				expect(exportRun.resultData.runData['Succeeded Speech Tasks']).toHaveLength(1);
			});
		});

		describe('enrichment.json', () => {
			it('gives one item per face task of each PID, with its content partner', () => {
				const expected = ENRICHMENT_PIDS.flatMap((pid) =>
					faceTasksOf(sandbox, pid).map((task) => {
						const partner = contentPartnerOf(sandbox.data.org, task.cp);
						return {
							pid,
							task_id: task.task_id,
							cp: task.cp,
							content_partner: partner.label,
							contact_email: mainContactEmail(partner),
						};
					}),
				);
				const merged = nodeJson(enrichment, 'Face Task + Content Partner');

				expect(expected.length).toBeGreaterThan(ENRICHMENT_PIDS.length);
				expect(new Set(expected.map((each) => each.cp)).size).toBeGreaterThan(1);
				expect(
					merged
						.map((each) => ({
							pid: each.pid,
							task_id: each.task_id,
							cp: each.cp,
							content_partner: each.content_partner,
							contact_email: each.contact_email,
						}))
						.sort((a, b) => byText(a.task_id, b.task_id)),
				).toEqual(expected.sort((a, b) => byText(a.task_id, b.task_id)));
			});
		});

		describe('ai-agent.json', () => {
			it('answers from what both tools returned', () => {
				const tasks = faceTasksOf(sandbox, AGENT_PID);
				const partner = contentPartnerOf(sandbox.data.org, agentCp);
				const faces = tasks.map((each) => `${String(each.task_id)}: ${String(each.n_faces)} faces`);

				expect(nodeJson(agent, 'AI Agent')).toEqual([
					{ output: `Content partner: ${partner.label}. Face tasks: ${faces.join(' | ')}.` },
				]);
			});

			it('offers both nodes as tools with their $fromAI parameters', () => {
				const [first] = chatRequests(model.requests.slice(agentRequestsBefore));
				const tools = (first.tools ?? []).map((each) => each.function!);

				expect(tools.map((each) => each.name).sort()).toEqual([AI_TOOL_NAME, ORG_TOOL_NAME].sort());
				const parameters = (name: string) =>
					Object.keys(tools.find((each) => each.name === name)?.parameters?.properties ?? {});
				expect(parameters(AI_TOOL_NAME)).toEqual(['pid']);
				expect(parameters(ORG_TOOL_NAME)).toEqual(['contentPartnerId']);
				expect(JSON.stringify(first.messages)).toContain(AGENT_QUESTION);
			});
		});
	});
});
