import { createHash } from 'node:crypto';

import {
	graphWorkflow,
	manualTrigger,
	node,
	PACKAGE_NODE_TYPES,
	setFields,
	SIP_TRIGGER_VERSION,
	code,
	type CredentialRef,
	type WorkflowJson,
	type WorkflowNode,
} from '../../dev/n8n/workflows';

/**
 * The example workflows users import (examples/*.json), built here so that their parameters follow the node
 * descriptions; `npm run examples` writes them and a unit test (test/dev/examples.test.ts) fails when the committed
 * files differ from what this builds. `npm start` imports the files, and test/e2e/examples.test.ts imports them with
 * n8n's CLI and runs them. Every node type version here exists in n8n 1.123.x and 2.x.
 */

/**
 * Credentials as n8n names a new one of each type ("<type's display name without API> account"): on import, n8n (CLI
 * and editor) links a node to the user's credential of that name and type when the id below is unknown to it.
 */
export const EXAMPLE_CREDENTIALS = {
	ai: { id: 'exAiMetadataCred', name: 'Archive AI Metadata account' },
	org: { id: 'exOrganizatnCred', name: 'Archive Organization account' },
	sip: { id: 'exSipWebhookCred', name: 'Archive SIP Webhook account' },
	openAi: { id: 'exOpenAiCredent1', name: 'OpenAi account' },
} as const satisfies Record<string, CredentialRef>;

/** Workflow ids: importing a file again replaces the workflow instead of adding a copy. */
export const EXAMPLE_WORKFLOW_IDS = {
	sip: 'ArchiveExSipStat',
	export: 'ArchiveExExport1',
	enrichment: 'ArchiveExEnrich1',
	agent: 'ArchiveExAgent01',
} as const;

/** The SIP trigger's webhook id: its Production URL is `/webhook/<this>/sip-status`. */
export const SIP_WEBHOOK_ID = '9b3e6f2a-5c1d-4e8b-b7a4-2d6c0f1e8a53';

/** Where the export example writes its CSV files: relative to the folder n8n runs in (see its sticky note). */
export const EXPORT_FOLDER = '.n8n-files/archive-exports';

/** PIDs the enrichment example starts from: ones the emulators (`npm start`) hold; replace them with yours. */
export const ENRICHMENT_PIDS = ['aeyogtgnyj', 'aiszanplxp', 'ajkwvgebbe'];

/** The AI agent example's question (an Edit Fields node; a Chat Trigger can take its place). */
export const AGENT_QUESTION =
	'Which content partner archived PID aiszanplxp, and how many faces did the face recognition find?';

/** A UUID derived from `seed`, so that every build writes the same file. */
function stableUuid(seed: string): string {
	const hex = createHash('sha256').update(seed).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function at(workflowNode: WorkflowNode, x: number, y: number): WorkflowNode {
	return { ...workflowNode, position: [x, y] };
}

function sticky(
	name: string,
	lines: string[],
	position: [number, number],
	size: { width: number; height: number },
): WorkflowNode {
	return {
		...node(
			name,
			'n8n-nodes-base.stickyNote',
			{ content: lines.join('\n'), width: size.width, height: size.height, color: 4 },
			{ typeVersion: 1 },
		),
		position,
	};
}

function expressionFields(name: string, fields: Record<string, string>): WorkflowNode {
	return setFields(
		name,
		Object.fromEntries(
			Object.entries(fields).map(([field, expression]) => [field, `={{ ${expression} }}`]),
		),
	);
}

interface ExportFormat extends WorkflowJson {
	staticData: null;
	meta: Record<string, unknown>;
	tags: unknown[];
}

/** The workflow as `n8n export:workflow` writes it (without its database timestamps), with stable ids. */
function exported(workflow: WorkflowJson): ExportFormat {
	const nodes = workflow.nodes.map((each) => {
		const parameters = structuredClone(each.parameters);
		const assignments = (parameters.assignments as { assignments?: Array<{ id: string }> })
			?.assignments;
		assignments?.forEach((assignment, index) => {
			assignment.id = stableUuid(`${workflow.id}/${each.name}/assignment/${index}`);
		});
		return { ...each, id: stableUuid(`${workflow.id}/${each.name}`), parameters };
	});
	return {
		id: workflow.id,
		name: workflow.name,
		active: false,
		nodes,
		connections: workflow.connections,
		settings: workflow.settings,
		staticData: null,
		meta: { templateCredsSetupCompleted: false },
		pinData: {},
		tags: [],
	};
}

/**
 * SIP status events: successes fetch the AI metadata of the archived PID and the content partner that owns it;
 * failures are summarised for a follow-up (e-mail, ticket, ...). README's Example 1.
 */
function sipStatusExample(): ExportFormat {
	const trigger = node(
		'SIP Status',
		PACKAGE_NODE_TYPES.sipStatusTrigger,
		{ outcomes: 'both', outputMode: 'perOutcome', options: {} },
		{
			typeVersion: SIP_TRIGGER_VERSION,
			credentials: { archiveSipWebhookApi: EXAMPLE_CREDENTIALS.sip },
			webhookId: SIP_WEBHOOK_ID,
		},
	);
	const aiMetadata = node(
		'AI Metadata for PID',
		PACKAGE_NODE_TYPES.aiMetadata,
		{
			resource: 'faceTask',
			operation: 'getByPid',
			pid: '={{ $json.pid }}',
			output: 'simplified',
			options: { whenNotFound: 'notFoundItem' },
		},
		{ credentials: { archiveAiMetadataApi: EXAMPLE_CREDENTIALS.ai } },
	);
	const contentPartner = node(
		'Content Partner',
		PACKAGE_NODE_TYPES.organization,
		{
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: { __rl: true, mode: 'id', value: '={{ $json.cp }}' },
			output: 'simplified',
			options: { flatten: true },
		},
		{
			credentials: { archiveOrganizationApi: EXAMPLE_CREDENTIALS.org },
			onError: 'continueRegularOutput',
		},
	);
	const archived = expressionFields('Archived Summary', {
		pid: "$('AI Metadata for PID').item.json.pid",
		task_id: "$('AI Metadata for PID').item.json.task_id",
		n_faces: "$('AI Metadata for PID').item.json.n_faces",
		content_partner: '$json.label',
		contact_email: '$json.contact_email',
	});
	const failed = expressionFields('Failure Summary', {
		correlation_id: '$json.correlation_id',
		reason: '$json.message',
		received_at: '$json.received_at',
	});
	const note = sticky(
		'What to fill in',
		[
			'## SIP status → AI metadata + content partner',
			'Runs when the archive reports a SIP archived (**Success** output) or failed (**Failure** output).',
			'',
			'Fill in:',
			'1. **SIP Status**: credential *Archive SIP Webhook account* with the signing secret (`whsec_…`) the archive gave you.',
			'2. **AI Metadata for PID**: credential *Archive AI Metadata account*.',
			'3. **Content Partner**: credential *Archive Organization account*.',
			'4. Give the archive the **Production URL** (SIP Status → Webhook URLs), then *Active* (1.x) or *Publish* (2.x).',
			'',
			'Replace the two *Summary* nodes with what you need: an e-mail, a ticket, a row in a sheet.',
		],
		[-40, -360],
		{ width: 700, height: 300 },
	);
	return exported(
		graphWorkflow(
			'Archive example: SIP status -> AI metadata + content partner',
			[
				at(trigger, 0, 200),
				at(aiMetadata, 300, 100),
				at(contentPartner, 600, 100),
				at(archived, 900, 100),
				at(failed, 300, 350),
				note,
			],
			[
				{ from: trigger.name, to: aiMetadata.name, output: 0 },
				{ from: aiMetadata.name, to: contentPartner.name },
				{ from: contentPartner.name, to: archived.name },
				{ from: trigger.name, to: failed.name, output: 1 },
			],
			{ id: EXAMPLE_WORKFLOW_IDS.sip },
		),
	);
}

/** Every morning, all succeeded speech tasks, newest first, as a CSV file on disk. */
function scheduledExportExample(): ExportFormat {
	const schedule = node(
		'Every Morning',
		'n8n-nodes-base.scheduleTrigger',
		{ rule: { interval: [{ field: 'days', triggerAtHour: 6 }] } },
		{ typeVersion: 1.2 },
	);
	const byHand = manualTrigger('Run Now');
	const tasks = node(
		'Succeeded Speech Tasks',
		PACKAGE_NODE_TYPES.aiMetadata,
		{
			resource: 'speechTask',
			operation: 'getAll',
			returnAll: true,
			filters: { status: ['succeeded'] },
			output: 'simplified',
			options: {},
			sort: { rules: [{ column: 'processed_time', direction: 'desc' }] },
		},
		{ credentials: { archiveAiMetadataApi: EXAMPLE_CREDENTIALS.ai } },
	);
	const toCsv = node(
		'To CSV',
		'n8n-nodes-base.convertToFile',
		{ operation: 'csv', options: { fileName: 'speech-tasks.csv' } },
		{ typeVersion: 1.1 },
	);
	const write = node(
		'Write Export File',
		'n8n-nodes-base.readWriteFile',
		{
			operation: 'write',
			fileName: `=${EXPORT_FOLDER}/speech-tasks-{{ $now.toFormat('yyyyMMdd-HHmmss') }}.csv`,
			dataPropertyName: 'data',
			options: {},
		},
		{ typeVersion: 1 },
	);
	const note = sticky(
		'What to fill in',
		[
			'## Daily export of speech tasks to CSV',
			"Every day at 06:00 (the workflow's timezone), or when you click *Execute workflow* (**Run Now**).",
			'',
			'Fill in:',
			'1. **Succeeded Speech Tasks**: credential *Archive AI Metadata account*. Change *Filters* (e.g. add a *Content Partner* or *Time From* `{{ $now.minus({ days: 1 }) }}` for the last day only) and *Sort* as you need.',
			`2. **Write Export File**: *File Path and Name*. A relative path is relative to the folder n8n runs in (\`${EXPORT_FOLDER}\` is inside \`~/.n8n-files\` when n8n runs in your home folder, as in n8n's Docker image). n8n 2.x writes only inside \`~/.n8n-files\` unless \`N8N_RESTRICT_FILE_ACCESS_TO\` says otherwise.`,
			'3. *Active* (1.x) or *Publish* (2.x) for the daily run.',
			'',
			'Or replace *Write Export File* with a mail step (Send Email, Gmail) that attaches `data`.',
		],
		[-40, -420],
		{ width: 760, height: 340 },
	);
	return exported(
		graphWorkflow(
			'Archive example: daily CSV export of succeeded speech tasks',
			[
				at(schedule, 0, 0),
				at(byHand, 0, 200),
				at(tasks, 300, 100),
				at(toCsv, 600, 100),
				at(write, 900, 100),
				note,
			],
			[
				{ from: schedule.name, to: tasks.name },
				{ from: byHand.name, to: tasks.name },
				{ from: tasks.name, to: toCsv.name },
				{ from: toCsv.name, to: write.name },
			],
			{ id: EXAMPLE_WORKFLOW_IDS.export },
		),
	);
}

/** PIDs from elsewhere (a sheet, a webhook) → their face tasks → each one's content partner → one item each. */
function enrichmentExample(): ExportFormat {
	const trigger = manualTrigger('Run Now');
	const pids = code(
		'PIDs to Enrich',
		[
			'// Stands in for your source of PIDs: a spreadsheet, a database, a webhook.',
			`return ${JSON.stringify(ENRICHMENT_PIDS)}.map((pid) => ({ json: { pid } }));`,
		].join('\n'),
	);
	const faceTasks = node(
		'Face Tasks of PID',
		PACKAGE_NODE_TYPES.aiMetadata,
		{
			resource: 'faceTask',
			operation: 'getByPid',
			pid: '={{ $json.pid }}',
			output: 'simplified',
			options: { whenNotFound: 'noItem' },
		},
		{ credentials: { archiveAiMetadataApi: EXAMPLE_CREDENTIALS.ai } },
	);
	const contentPartner = node(
		'Content Partner',
		PACKAGE_NODE_TYPES.organization,
		{
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: { __rl: true, mode: 'id', value: '={{ $json.cp }}' },
			output: 'simplified',
			// One item per face task, found or not, so that the Merge pairs them by position.
			options: { flatten: true, whenNotFound: 'notFoundItem' },
		},
		{ credentials: { archiveOrganizationApi: EXAMPLE_CREDENTIALS.org } },
	);
	const partnerFields = expressionFields('Partner Fields', {
		content_partner: '$json.label',
		contact_email: '$json.contact_email',
	});
	const merge = node(
		'Face Task + Content Partner',
		'n8n-nodes-base.merge',
		{ mode: 'combine', combineBy: 'combineByPosition', options: {} },
		{ typeVersion: 3.2 },
	);
	const note = sticky(
		'What to fill in',
		[
			'## Enrich PIDs with AI metadata and their content partner',
			'Each PID → its face tasks (**Face Tasks of PID**) → the content partner of each task (**Content Partner**) → one item per task with both (**Face Task + Content Partner**, by position).',
			'',
			'Fill in:',
			'1. **PIDs to Enrich**: your PIDs, or replace it with your source (Google Sheets, a database, a webhook) giving items with a `pid` field.',
			'2. **Face Tasks of PID**: credential *Archive AI Metadata account*; pick another *Resource* (Speech Task, NER Task) if you need.',
			'3. **Content Partner**: credential *Archive Organization account*.',
		],
		[-40, -400],
		{ width: 760, height: 300 },
	);
	return exported(
		graphWorkflow(
			'Archive example: enrich PIDs with AI metadata and content partner',
			[
				at(trigger, 0, 100),
				at(pids, 220, 100),
				at(faceTasks, 440, 100),
				at(contentPartner, 660, 260),
				at(partnerFields, 880, 260),
				at(merge, 1100, 100),
				note,
			],
			[
				{ from: trigger.name, to: pids.name },
				{ from: pids.name, to: faceTasks.name },
				{ from: faceTasks.name, to: merge.name },
				{ from: faceTasks.name, to: contentPartner.name },
				{ from: contentPartner.name, to: partnerFields.name },
				{ from: partnerFields.name, to: merge.name, input: 1 },
			],
			{ id: EXAMPLE_WORKFLOW_IDS.enrichment },
		),
	);
}

/** Tool node names; n8n offers them to the model as `AI_Metadata_by_PID` and `Content_Partner`. */
export const AGENT_TOOLS = { ai: 'AI Metadata by PID', org: 'Content Partner' } as const;

/** n8n's AI Agent answering questions about PIDs with both action nodes as its tools. */
function aiAgentExample(): ExportFormat {
	const trigger = manualTrigger('Run Now');
	const question = setFields('Question', { chatInput: AGENT_QUESTION });
	const agent = node(
		'AI Agent',
		'@n8n/n8n-nodes-langchain.agent',
		{
			promptType: 'define',
			text: '={{ $json.chatInput }}',
			options: {
				systemMessage:
					'You answer questions about the archive. Look PIDs up with the AI Metadata by PID tool and content partners (the cp of a PID) with the Content Partner tool. Say when something was not found.',
			},
		},
		{ typeVersion: 3 },
	);
	const model = node(
		'OpenAI Chat Model',
		'@n8n/n8n-nodes-langchain.lmChatOpenAi',
		{ model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
		{ typeVersion: 1.2, credentials: { openAiApi: EXAMPLE_CREDENTIALS.openAi } },
	);
	const aiTool = node(
		AGENT_TOOLS.ai,
		`${PACKAGE_NODE_TYPES.aiMetadata}Tool`,
		{
			descriptionType: 'manual',
			toolDescription:
				'Gets the face tasks (AI metadata) of an archived PID: task id, status, content partner (cp), number of faces.',
			resource: 'faceTask',
			operation: 'getByPid',
			pid: "={{ $fromAI('pid', 'The PID (persistent identifier) of the archived item', 'string') }}",
			output: 'simplified',
			options: { whenNotFound: 'notFoundItem' },
		},
		{ credentials: { archiveAiMetadataApi: EXAMPLE_CREDENTIALS.ai } },
	);
	const orgTool = node(
		AGENT_TOOLS.org,
		`${PACKAGE_NODE_TYPES.organization}Tool`,
		{
			descriptionType: 'manual',
			toolDescription:
				'Gets a content partner (the organization that archived a PID) by its id, the cp field of AI metadata: label, address, contact.',
			resource: 'contentPartner',
			operation: 'get',
			contentPartner: {
				__rl: true,
				mode: 'id',
				value:
					"={{ $fromAI('contentPartnerId', 'The content partner id, the cp field of a face task, e.g. OR-abc1234', 'string') }}",
			},
			output: 'simplified',
			options: { flatten: true, whenNotFound: 'notFoundItem' },
		},
		{ credentials: { archiveOrganizationApi: EXAMPLE_CREDENTIALS.org } },
	);
	const note = sticky(
		'What to fill in',
		[
			'## AI Agent with the archive nodes as tools',
			'The agent looks PIDs up in the AI metadata and content partners in the Organization API to answer **Question**.',
			'',
			'Fill in:',
			'1. **OpenAI Chat Model**: an OpenAI credential (or replace it with another chat model).',
			'2. **AI Metadata by PID**: credential *Archive AI Metadata account*.',
			'3. **Content Partner**: credential *Archive Organization account*.',
			'4. **Question**: your question, or replace *Run Now* and *Question* with a Chat Trigger to chat with it.',
			'',
			"Each tool's *Description* tells the model what it does; its parameters marked with `$fromAI` are filled in by the model.",
		],
		[-40, -400],
		{ width: 760, height: 300 },
	);
	return exported(
		graphWorkflow(
			'Archive example: AI agent with archive tools',
			[
				at(trigger, 0, 0),
				at(question, 220, 0),
				at(agent, 460, 0),
				at(model, 360, 240),
				at(aiTool, 560, 240),
				at(orgTool, 760, 240),
				note,
			],
			[
				{ from: trigger.name, to: question.name },
				{ from: question.name, to: agent.name },
				{ from: model.name, to: agent.name, type: 'ai_languageModel' },
				{ from: aiTool.name, to: agent.name, type: 'ai_tool' },
				{ from: orgTool.name, to: agent.name, type: 'ai_tool' },
			],
			{ id: EXAMPLE_WORKFLOW_IDS.agent },
		),
	);
}

/** Every example, by its file name in examples/. */
export function exampleWorkflows(): Record<string, ExportFormat> {
	return {
		'sip-status.json': sipStatusExample(),
		'scheduled-export.json': scheduledExportExample(),
		'enrichment.json': enrichmentExample(),
		'ai-agent.json': aiAgentExample(),
	};
}
