import {
	graphWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	setFields,
	type CredentialRef,
	type WorkflowJson,
	type WorkflowNode,
	SIP_TRIGGER_VERSION,
} from '../../dev/n8n/workflows';
import type { CredentialImport } from '../../dev/n8n/n8n';
import type { Sandbox } from '../../dev/emulators';
import { aiCredentialImport, orgCredentialImport } from '../../dev/n8n/credentials';

/** Fixed ids, so a restarted demo finds (and does not duplicate) what it imported before. */
export const DEMO_CREDENTIALS = {
	ai: { id: 'DemoAiMetadata01', name: 'Archive AI Metadata (demo emulator)' },
	org: { id: 'DemoOrganizatn01', name: 'Archive Organization (demo emulator)' },
	sip: { id: 'DemoSipSecret001', name: 'Archive SIP webhook secret (demo)' },
} as const satisfies Record<string, CredentialRef>;

/** Start From of the demo's export workflow: what was processed since then is exported on the first activation. */
export const EXPORT_START_FROM = '2025-06-15T00:00:00Z';

/** The three credentials the demo's workflows refer to, pointed at the given emulators. */
export function demoCredentials(sandbox: Sandbox, signingSecret: string): CredentialImport[] {
	return [
		aiCredentialImport(DEMO_CREDENTIALS.ai, sandbox),
		orgCredentialImport(DEMO_CREDENTIALS.org, sandbox, { jwtPlacement: 'header' }),
		{
			...DEMO_CREDENTIALS.sip,
			type: 'archiveSipWebhookApi',
			data: { signingSecret, additionalSecrets: '' },
		},
	];
}

export const DEMO_WORKFLOW_IDS = { sip: 'DemoSipStatusWf1', export: 'DemoAiExportWf01' } as const;

/** Fixed, so the production URL stays the same across restarts. */
export const SIP_WEBHOOK_ID = '4f1c2b8e-0d7a-4c55-9a61-3e2f7b9d0c11';

function expressionFields(name: string, fields: Record<string, string>): WorkflowNode {
	return setFields(
		name,
		Object.fromEntries(
			Object.entries(fields).map(([field, expression]) => [field, `={{ ${expression} }}`]),
		),
	);
}

function placed(workflowNode: WorkflowNode, x: number, y: number): WorkflowNode {
	return { ...workflowNode, position: [x, y] };
}

/**
 * SIP status events: successes fetch the AI metadata of the archived PID and the content partner
 * that owns it; failures are summarised for a follow-up (e-mail, ticket, ...).
 *
 * The demo keeps the trigger's defaults (Timestamp Tolerance 5 minutes, so production events are refused for 5 minutes
 * after n8n starts). `toleranceSeconds` is for the e2e test that sends to this workflow seconds after starting n8n.
 */
export function sipStatusWorkflow({
	toleranceSeconds,
}: { toleranceSeconds?: number } = {}): WorkflowJson {
	const trigger = node(
		'SIP Status',
		PACKAGE_NODE_TYPES.sipStatusTrigger,
		{
			outcomes: 'both',
			outputMode: 'perOutcome',
			options: toleranceSeconds === undefined ? {} : { toleranceSeconds },
		},
		{
			typeVersion: SIP_TRIGGER_VERSION,
			credentials: { archiveSipWebhookApi: DEMO_CREDENTIALS.sip },
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
		{ credentials: { archiveAiMetadataApi: DEMO_CREDENTIALS.ai } },
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
			credentials: { archiveOrganizationApi: DEMO_CREDENTIALS.org },
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
	return graphWorkflow(
		'Demo: SIP status -> AI metadata + content partner',
		[
			placed(trigger, 0, 200),
			placed(aiMetadata, 300, 100),
			placed(contentPartner, 600, 100),
			placed(archived, 900, 100),
			placed(failed, 300, 350),
		],
		[
			{ from: trigger.name, to: aiMetadata.name, output: 0 },
			{ from: aiMetadata.name, to: contentPartner.name },
			{ from: contentPartner.name, to: archived.name },
			{ from: trigger.name, to: failed.name, output: 1 },
		],
		{ id: DEMO_WORKFLOW_IDS.sip },
	);
}

/** Hourly export of newly processed speech tasks to CSV files in `exportDir`. */
export function scheduledExportWorkflow(exportDir: string, startFrom: string): WorkflowJson {
	const trigger = node(
		'New Speech Tasks',
		PACKAGE_NODE_TYPES.aiMetadataTrigger,
		{
			pollTimes: { item: [{ mode: 'everyHour', minute: 0 }] },
			view: 'speech_tasks',
			statuses: ['succeeded'],
			output: 'simplified',
			options: { startFrom },
		},
		{ credentials: { archiveAiMetadataApi: DEMO_CREDENTIALS.ai } },
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
			fileName: `=${exportDir}/speech-tasks-{{ $now.toFormat('yyyyMMdd-HHmmss') }}.csv`,
			dataPropertyName: 'data',
			options: {},
		},
		{ typeVersion: 1 },
	);
	return graphWorkflow(
		'Demo: hourly export of new AI metadata to CSV',
		[placed(trigger, 0, 0), placed(toCsv, 300, 0), placed(write, 600, 0)],
		[
			{ from: trigger.name, to: toCsv.name },
			{ from: toCsv.name, to: write.name },
		],
		{ id: DEMO_WORKFLOW_IDS.export },
	);
}
