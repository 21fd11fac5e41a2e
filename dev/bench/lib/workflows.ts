import { randomUUID } from 'node:crypto';

import { parse, print } from 'graphql';

import { AI_VIEWS } from '../../../nodes/ArchiveAiMetadata/api/views';
import { carefulVerifierCode } from './carefulVerifier';
import { BURST_SIP_TOLERANCE_SECONDS, withE2eTolerance } from '../../n8n/sip-start-refusal';
import {
	chainWorkflow,
	code,
	graphWorkflow,
	manualWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	POLL_EVERY_FIVE_SECONDS,
	webhookTrigger,
	type CredentialRef,
	type WorkflowJson,
	type WorkflowNode,
	SIP_TRIGGER_VERSION,
} from '../../n8n/workflows';

/** Workflows of the benchmark: our nodes and n8n's built-in peers doing the same job. */

/** The documented face_tasks columns: what "All Fields" returns, so every contender moves the same bytes. */
export const FACE_TASK_COLUMNS: readonly string[] = AI_VIEWS.face_tasks.documentedColumns;

export const PAGE_SIZE = 1000;

/**
 * One page of face tasks in a total order (task_id is unique), as any correct offset pager must ask for it: the
 * very text, operation name and variables the Archive AI Metadata node sends for Return All with All Fields, so that
 * every contender asks the bench server for the same pages and gets the same bytes. Static text, parsed and printed
 * by graphql-js so that a typo fails here and not as a server error.
 */
export const FACE_TASKS_PAGE_QUERY = print(
	parse(`query ReadRows($where: face_tasks_bool_exp, $order_by: [face_tasks_order_by!], $limit: Int, $offset: Int) {
		face_tasks(where: $where, order_by: $order_by, limit: $limit, offset: $offset) { ${FACE_TASK_COLUMNS.join(' ')} }
	}`),
);
export const FACE_TASKS_OPERATION = 'ReadRows';

/** The page variables the node sends, in its key order. */
export function faceTaskPageVariables(limit: number, offset: number): Record<string, unknown> {
	return { where: {}, order_by: [{ task_id: 'asc' }], limit, offset };
}

/** The Organization API caps every list at 500 rows; the Archive Organization node pages by 500. */
export const ORG_PAGE_SIZE = 500;

/** Basic fields of an organization, as the Archive Organization node asks for them (Get Many, default output). */
export const ORGANIZATION_BASIC_FIELDS: readonly string[] = [
	'iri',
	'id',
	'label',
	'alt_label',
	'mam_label',
	'slug',
	'homepage',
	'description',
	'overlay',
	'bzt',
	'iiif',
	'form_url',
	'sector',
	'category',
];

/** One page of organizations as the Archive Organization node sends it (offset given: ordered by IRI). */
export const ORGANIZATIONS_PAGE_QUERY = print(
	parse(`query GetManyOrganizations($offset: Int, $limit: Int) {
		organizations(offset: $offset, limit: $limit) { ${ORGANIZATION_BASIC_FIELDS.join(' ')} }
	}`),
);
export const ORGANIZATIONS_OPERATION = 'GetManyOrganizations';

export const FACE_TASKS_BY_PID_QUERY = print(
	parse(`query FaceTasksByPid($pid: String!) {
		face_tasks(where: { pid: { _eq: $pid } }, order_by: [{ task_id: asc }]) { ${FACE_TASK_COLUMNS.join(' ')} }
	}`),
);

export const AI_NODE = 'Archive AI Metadata';
export const ORG_NODE = 'Archive Organization';
export const HTTP_NODE = 'HTTP Request';
export const SPLIT_NODE = 'Split Out';
export const GRAPHQL_NODE = 'GraphQL';
export const ITEMS_NODE = 'PID Items';

/** Manual Trigger -> NoOp: what a bare `n8n execute` costs (memory baseline). */
export function baselineWorkflow(): WorkflowJson {
	return manualWorkflow('bench baseline', [node('Nothing', 'n8n-nodes-base.noOp', {})]);
}

/** Our node, Return All with All Fields; `concurrency` sets Max Concurrent Requests (default: the node's). */
export function ourReturnAllWorkflow(
	aiCredential: CredentialRef,
	concurrency?: number,
): WorkflowJson {
	return manualWorkflow(`bench ours return all${concurrency ? ` x${concurrency}` : ''}`, [
		aiGetAllNode(aiCredential, { returnAll: true }, concurrency),
	]);
}

function aiGetAllNode(
	credential: CredentialRef,
	amount: { returnAll: true } | { returnAll: false; limit: number },
	concurrency?: number,
): WorkflowNode {
	return node(
		AI_NODE,
		PACKAGE_NODE_TYPES.aiMetadata,
		{
			resource: 'faceTask',
			operation: 'getAll',
			...amount,
			output: 'raw',
			options: concurrency ? { maxConcurrency: concurrency } : {},
		},
		{ credentials: { archiveAiMetadataApi: credential } },
	);
}

/** Our Organization node, Get Many organizations, Return All, default output (basic fields). */
export function ourOrgReturnAllWorkflow(
	orgCredential: CredentialRef,
	concurrency?: number,
): WorkflowJson {
	return manualWorkflow(`bench ours org return all${concurrency ? ` x${concurrency}` : ''}`, [
		node(
			ORG_NODE,
			PACKAGE_NODE_TYPES.organization,
			{
				resource: 'organization',
				operation: 'getAll',
				returnAll: true,
				options: concurrency ? { maxConcurrency: concurrency } : {},
			},
			{ credentials: { archiveOrganizationApi: orgCredential } },
		),
	]);
}

/** What differs between the HTTP Request nodes paging a GraphQL API in these workflows. */
interface GraphqlPaging {
	url: string;
	headerCredential: CredentialRef;
	query: string;
	operationName: string;
	/** The first request's variables; later pages get `pageVariables` (an n8n expression of `$pageCount`). */
	firstVariables: Record<string, unknown>;
	pageVariables: string;
	/** An n8n expression of `$response` that is true after the last page. */
	completeWhen: string;
}

/**
 * n8n's HTTP Request node (v4.2) POSTing a GraphQL query with the token in a header, paged by "Update a Parameter
 * in Each Request": the body's `variables` are set for each page from `$pageCount` until `completeWhen` holds.
 */
function graphqlPagingRequest(paging: GraphqlPaging): WorkflowNode {
	return node(
		HTTP_NODE,
		'n8n-nodes-base.httpRequest',
		{
			method: 'POST',
			url: paging.url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: JSON.stringify({
				query: paging.query,
				variables: paging.firstVariables,
				operationName: paging.operationName,
			}),
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [{ type: 'body', name: 'variables', value: paging.pageVariables }],
						},
						paginationCompleteWhen: 'other',
						completeExpression: paging.completeWhen,
					},
				},
			},
		},
		{ typeVersion: 4.2, credentials: { httpHeaderAuth: paging.headerCredential } },
	);
}

/** The HTTP Request node paging the face tasks as our node does; it stops at the first empty page. */
function httpPagingNode(graphqlUrl: string, headerCredential: CredentialRef): WorkflowNode {
	return graphqlPagingRequest({
		url: graphqlUrl,
		headerCredential,
		query: FACE_TASKS_PAGE_QUERY,
		operationName: FACE_TASKS_OPERATION,
		firstVariables: faceTaskPageVariables(PAGE_SIZE, 0),
		pageVariables: `={{ { "where": {}, "order_by": [{ "task_id": "asc" }], "limit": ${PAGE_SIZE}, "offset": $pageCount * ${PAGE_SIZE} } }}`,
		completeWhen: '={{ $response.body.data.face_tasks.length === 0 }}',
	});
}

/** HTTP Request alone: one item per page (the same bytes as our node's 100,000 items). */
export function httpReturnAllWorkflow(
	graphqlUrl: string,
	headerCredential: CredentialRef,
): WorkflowJson {
	return manualWorkflow('bench http return all', [httpPagingNode(graphqlUrl, headerCredential)]);
}

/** HTTP Request + Split Out: one item per row, the output our node gives. */
export function httpSplitReturnAllWorkflow(
	graphqlUrl: string,
	headerCredential: CredentialRef,
): WorkflowJson {
	return manualWorkflow('bench http split return all', [
		httpPagingNode(graphqlUrl, headerCredential),
		node(SPLIT_NODE, 'n8n-nodes-base.splitOut', {
			fieldToSplitOut: 'data.face_tasks',
			include: 'noOtherFields',
			options: {},
		}),
	]);
}

/**
 * The HTTP Request node paging organizations as our node does (500 per page, offset from `$pageCount`), with the
 * Organization credential's token in a header, then Split Out: one item per organization, our node's output.
 */
export function httpOrgReturnAllWorkflow(
	apiUrl: string,
	headerCredential: CredentialRef,
	withSplitOut: boolean,
): WorkflowJson {
	const http = graphqlPagingRequest({
		url: apiUrl,
		headerCredential,
		query: ORGANIZATIONS_PAGE_QUERY,
		operationName: ORGANIZATIONS_OPERATION,
		firstVariables: { offset: 0, limit: ORG_PAGE_SIZE },
		pageVariables: `={{ { "offset": $pageCount * ${ORG_PAGE_SIZE}, "limit": ${ORG_PAGE_SIZE} } }}`,
		completeWhen: '={{ $response.body.data.organizations.length === 0 }}',
	});
	const split = node(SPLIT_NODE, 'n8n-nodes-base.splitOut', {
		fieldToSplitOut: 'data.organizations',
		include: 'noOtherFields',
		options: {},
	});
	return manualWorkflow(
		`bench http org return all${withSplitOut ? ' + split' : ''}`,
		withSplitOut ? [http, split] : [http],
	);
}

/** A Code node emitting one item per PID; the PIDs are a JSON literal, not code. */
function pidItemsNode(pids: string[]): WorkflowNode {
	return code(
		ITEMS_NODE,
		`const pids = ${JSON.stringify(pids)};\nreturn pids.map((pid) => ({ json: { pid } }));`,
	);
}

export function ourGetByPidWorkflow(aiCredential: CredentialRef, pids: string[]): WorkflowJson {
	return manualWorkflow('bench ours get by pid', [
		pidItemsNode(pids),
		node(
			AI_NODE,
			PACKAGE_NODE_TYPES.aiMetadata,
			{
				resource: 'faceTask',
				operation: 'getByPid',
				pid: '={{ $json.pid }}',
				output: 'raw',
				options: {},
			},
			{ credentials: { archiveAiMetadataApi: aiCredential } },
		),
	]);
}

/** n8n's GraphQL node: one request per input item, the PID as a variable. */
export function graphqlGetByPidWorkflow(
	graphqlUrl: string,
	headerCredential: CredentialRef,
	pids: string[],
): WorkflowJson {
	return manualWorkflow('bench graphql get by pid', [
		pidItemsNode(pids),
		node(
			GRAPHQL_NODE,
			'n8n-nodes-base.graphql',
			{
				authentication: 'headerAuth',
				requestMethod: 'POST',
				endpoint: graphqlUrl,
				requestFormat: 'json',
				query: FACE_TASKS_BY_PID_QUERY,
				variables: '={{ { "pid": $json.pid } }}',
				responseFormat: 'json',
			},
			{ typeVersion: 1.1, credentials: { httpHeaderAuth: headerCredential } },
		),
	]);
}

export interface TokenCredentials {
	ai: CredentialRef;
	org: CredentialRef;
}

/** Both token-using nodes, one small read each, so every execution needs a token of each service. */
function tokenUsingNodes(credentials: TokenCredentials): WorkflowNode[] {
	return [
		aiGetAllNode(credentials.ai, { returnAll: false, limit: 1 }),
		node(
			ORG_NODE,
			PACKAGE_NODE_TYPES.organization,
			{
				resource: 'contentPartner',
				operation: 'getAll',
				returnAll: false,
				limit: 1,
				output: 'simplified',
				options: {},
			},
			{ credentials: { archiveOrganizationApi: credentials.org } },
		),
	];
}

export function tokenCliWorkflow(credentials: TokenCredentials): WorkflowJson {
	return manualWorkflow('bench tokens cli', tokenUsingNodes(credentials));
}

/** Webhook answering with the last node's output, so consecutive calls are consecutive executions. */
export function tokenServerWorkflow(credentials: TokenCredentials, path: string): WorkflowJson {
	return chainWorkflow('bench tokens server', [
		webhookTrigger('Webhook', { path, responseMode: 'lastNode' }),
		...tokenUsingNodes(credentials),
	]);
}

/** The bench-only floor package (dev/bench/floorNode) and its node types. */
export const FLOOR_PACKAGE_NAME = 'n8n-nodes-bench-floor';
const FLOOR_NODE_TYPE = `${FLOOR_PACKAGE_NAME}.benchFloor`;
const FLOOR_WEBHOOK_NODE_TYPE = `${FLOOR_PACKAGE_NAME}.benchWebhookFloor`;

export const SIP_TRIGGER_NODE = 'SIP Status';
export const PLAIN_WEBHOOK_NODE = 'Webhook';
/** The node after each trigger bench contender's trigger: its items carry the events that ran. */
export const TRIGGER_DONE_NODE = 'Done';

/** Our trigger -> NoOp; `respond` sets the trigger's Respond parameter (default: the node's, Immediately). */
export function sipTriggerWorkflow(
	secretCredential: CredentialRef,
	respond?: 'immediately' | 'afterSaved',
): WorkflowJson {
	return chainWorkflow(`bench sip trigger${respond ? ` (${respond})` : ''}`, [
		node(
			SIP_TRIGGER_NODE,
			PACKAGE_NODE_TYPES.sipStatusTrigger,
			// n8n refuses deliveries until its start + the tolerance: the bench sends once past that (run.ts).
			{
				...(respond ? { respond } : {}),
				options: withE2eTolerance({}, BURST_SIP_TOLERANCE_SECONDS),
			},
			{
				typeVersion: SIP_TRIGGER_VERSION,
				credentials: { archiveSipWebhookApi: secretCredential },
				webhookId: randomUUID(),
			},
		),
		node(TRIGGER_DONE_NODE, 'n8n-nodes-base.noOp', {}),
	]);
}

export function plainWebhookWorkflow(path: string): WorkflowJson {
	return chainWorkflow('bench plain webhook', [
		webhookTrigger(PLAIN_WEBHOOK_NODE, { path, responseMode: 'onReceived' }),
		node(TRIGGER_DONE_NODE, 'n8n-nodes-base.noOp', {}),
	]);
}

/** The bench-only webhook floor (dev/bench/floorNode/BenchWebhookFloor.node.js) -> NoOp; URL `<webhookId>/bench-floor`. */
export function minimalTriggerWorkflow(): WorkflowJson {
	return chainWorkflow('bench minimal community trigger', [
		node(
			'Bench Webhook Floor',
			FLOOR_WEBHOOK_NODE_TYPE,
			{},
			{ typeVersion: 2, webhookId: randomUUID() },
		),
		node(TRIGGER_DONE_NODE, 'n8n-nodes-base.noOp', {}),
	]);
}

export const CAREFUL_WEBHOOK_NODE = 'Webhook (Raw Body)';
export const CAREFUL_VERIFY_NODE = 'Verify Signature';

/**
 * What a careful user builds from n8n's own nodes instead of our trigger: Webhook (POST, Raw Body, Respond "Using
 * Respond to Webhook Node") -> Code (verifies the Standard Webhooks signature, carefulVerifier.ts) -> If verified ->
 * Respond to Webhook 204 (no data) -> NoOp, else Respond to Webhook 401 (no data). Needs
 * NODE_FUNCTION_ALLOW_BUILTIN=crypto.
 */
export function carefulUserWorkflow(
	path: string,
	secret: string,
	toleranceSeconds: number,
): WorkflowJson {
	const respond = (name: string, responseCode: number) =>
		node(
			name,
			'n8n-nodes-base.respondToWebhook',
			{ respondWith: 'noData', options: { responseCode } },
			{ typeVersion: 1.5 },
		);
	return graphWorkflow(
		'bench careful user webhook',
		[
			node(
				CAREFUL_WEBHOOK_NODE,
				'n8n-nodes-base.webhook',
				{ httpMethod: 'POST', path, responseMode: 'responseNode', options: { rawBody: true } },
				{ typeVersion: 2, webhookId: randomUUID() },
			),
			code(CAREFUL_VERIFY_NODE, carefulVerifierCode(secret, toleranceSeconds)),
			node(
				'Verified?',
				'n8n-nodes-base.if',
				{
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{
								id: randomUUID(),
								leftValue: '={{ $json.verified }}',
								rightValue: '',
								operator: { type: 'boolean', operation: 'true', singleValue: true },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
				{ typeVersion: 2.2 },
			),
			respond('Accept (204)', 204),
			respond('Refuse (401)', 401),
			node(TRIGGER_DONE_NODE, 'n8n-nodes-base.noOp', {}),
		],
		[
			{ from: CAREFUL_WEBHOOK_NODE, to: CAREFUL_VERIFY_NODE },
			{ from: CAREFUL_VERIFY_NODE, to: 'Verified?' },
			{ from: 'Verified?', to: 'Accept (204)', output: 0 },
			{ from: 'Verified?', to: 'Refuse (401)', output: 1 },
			{ from: 'Accept (204)', to: TRIGGER_DONE_NODE },
		],
	);
}

export const EXPORT_VIEW = 'speech_tasks';
export const EXPORT_TRIGGER_NODE = 'New Speech Tasks';
export const SCHEDULE_NODE = 'Schedule Trigger';
export const CONVERT_NODE = 'Convert to File';
export const WRITE_NODE = 'Write CSV';

/** The columns of a speech task our trigger's "Simplified" fields select; the built-in flow asks for the same. */
export const SPEECH_TASK_EXPORT_COLUMNS: readonly string[] =
	AI_VIEWS.speech_tasks.simplifiedColumns;
export const EXPORT_PAGE_SIZE = 1000;

/** What the built-in flow asks for: speech tasks at or after `since`, oldest first, a page at `$offset`. */
export const SPEECH_TASKS_EXPORT_QUERY = print(
	parse(`query ExportSpeechTasks($since: timestamptz, $limit: Int, $offset: Int) {
		speech_tasks(where: { processed_time: { _gte: $since } }, order_by: [{ processed_time: asc }, { task_id: asc }], limit: $limit, offset: $offset) { ${SPEECH_TASK_EXPORT_COLUMNS.join(' ')} }
	}`),
);

/** Convert to File (CSV, header row) and Read/Write Files from Disk writing it to `csvPath`. */
function csvToDiskNodes(csvPath: string): WorkflowNode[] {
	return [
		node(
			CONVERT_NODE,
			'n8n-nodes-base.convertToFile',
			{ operation: 'csv', binaryPropertyName: 'data', options: { fileName: 'export.csv' } },
			{ typeVersion: 1.1 },
		),
		node(
			WRITE_NODE,
			'n8n-nodes-base.readWriteFile',
			{ operation: 'write', fileName: csvPath, dataPropertyName: 'data', options: {} },
			{ typeVersion: 1 },
		),
	];
}

export interface ExportPlan {
	/** ISO time at or before every row's processed_time: the export's lower bound ("Start From"). */
	since: string;
	/** Rows expected in the CSV (the trigger's Max Records per Poll is set to this). */
	rows: number;
	csvPath: string;
}

/** Our trigger polls every 5 seconds, so the poll after the rows appear comes within 5 s. */
export const EXPORT_POLL_SECONDS = 5;

/**
 * Our AI Metadata Trigger on speech tasks (every status, Simplified fields, Start From `since`, everything in one
 * poll, other options at their defaults; a poll every 5 seconds) -> Convert to File (CSV) -> Write to disk.
 * Activating the workflow polls at once (the bench keeps the rows withheld then); a later poll finds them.
 */
export function ourExportWorkflow(
	aiCredential: CredentialRef,
	plan: ExportPlan,
	maxConcurrency?: number,
): WorkflowJson {
	return chainWorkflow('bench export ours', [
		node(
			EXPORT_TRIGGER_NODE,
			PACKAGE_NODE_TYPES.aiMetadataTrigger,
			{
				pollTimes: POLL_EVERY_FIVE_SECONDS,
				view: EXPORT_VIEW,
				statuses: [],
				output: 'simplified',
				options: {
					maxRecordsPerPoll: plan.rows,
					startFrom: plan.since,
					...(maxConcurrency === undefined ? {} : { maxConcurrency }),
				},
			},
			{ credentials: { archiveAiMetadataApi: aiCredential } },
		),
		...csvToDiskNodes(plan.csvPath),
	]);
}

/**
 * The export's floor: the same flow as ours with the trigger replaced by one that only emits rows it has parsed
 * already (polling every 5 seconds like ours): what n8n and Convert to File need for the rows, without fetching.
 */
export function floorExportWorkflow(
	plan: ExportPlan,
	files: { rowsFile: string; startFile: string },
): WorkflowJson {
	return chainWorkflow('bench export floor', [
		node(EXPORT_TRIGGER_NODE, FLOOR_NODE_TYPE, { pollTimes: POLL_EVERY_FIVE_SECONDS, ...files }),
		...csvToDiskNodes(plan.csvPath),
	]);
}

/**
 * The flow a user builds from n8n's own nodes: a Schedule Trigger (a cron that fires once, `leadSeconds` after the
 * workflow is activated), the HTTP Request node (v4.2) POSTing the GraphQL query with the token in a header and
 * offset pagination ("Update a Parameter in Each Request" from `$pageCount`) until a page shorter than the limit,
 * Split Out (one item per row), Convert to File (CSV) and Write to disk.
 */
export function builtinExportWorkflow(
	graphqlUrl: string,
	headerCredential: CredentialRef,
	plan: ExportPlan,
	leadSeconds: number,
): WorkflowJson {
	return chainWorkflow(
		'bench export built-in',
		[
			node(
				SCHEDULE_NODE,
				'n8n-nodes-base.scheduleTrigger',
				{
					rule: {
						interval: [
							{
								field: 'cronExpression',
								// Second, minute, hour, day and month of one moment: a schedule that fires once.
								expression: `={{ $now.plus({ seconds: ${leadSeconds} }).toFormat('s m H d L') }} *`,
							},
						],
					},
				},
				{ typeVersion: 1.2 },
			),
			graphqlPagingRequest({
				url: graphqlUrl,
				headerCredential,
				query: SPEECH_TASKS_EXPORT_QUERY,
				operationName: 'ExportSpeechTasks',
				firstVariables: { since: plan.since, limit: EXPORT_PAGE_SIZE, offset: 0 },
				pageVariables: `={{ { "since": ${JSON.stringify(plan.since)}, "limit": ${EXPORT_PAGE_SIZE}, "offset": $pageCount * ${EXPORT_PAGE_SIZE} } }}`,
				completeWhen: `={{ $response.body.data.speech_tasks.length < ${EXPORT_PAGE_SIZE} }}`,
			}),
			node(SPLIT_NODE, 'n8n-nodes-base.splitOut', {
				fieldToSplitOut: 'data.speech_tasks',
				include: 'noOtherFields',
				options: {},
			}),
			...csvToDiskNodes(plan.csvPath),
		],
		{ settings: { timezone: 'UTC' } },
	);
}
