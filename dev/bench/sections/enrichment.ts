import { parse, print } from 'graphql';

import type { Sandbox } from '../../emulators';
import type { N8nInstance } from '../../n8n/n8n';
import type { CliRun } from '../../n8n/run-data';
import {
	code,
	manualWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	type CredentialRef,
	type WorkflowJson,
	type WorkflowNode,
} from '../../n8n/workflows';
import { countsSince, snapshot, type RequestCounts } from '../lib/counters';
import { executeMeasured } from '../lib/execute';
import { markdownTable, verdict } from '../lib/report';
import { ratio } from '../lib/stats';

/**
 * Enrichment (issue 26 item 1): N input items naming records by id, each item enriched with its record. Two cases:
 * content partners (many items name the same partner; our Organization Get sends the distinct keys in aliased
 * batches) and AI speech tasks (our AI Metadata Get sends the distinct task ids as `task_id _in [...]`, 500 per
 * request). Each against n8n's GraphQL node (one request per item) and the HTTP Request node with its Batching option
 * (one request per item, a batch in flight at once), with a delay per GraphQL request on the emulator. Every
 * contender asks for the same fields.
 */

export const ENRICHMENT_ITEMS_NODE = 'Partner Items';
export const ENRICHMENT_ORG_NODE = 'Archive Organization';
export const ENRICHMENT_GRAPHQL_NODE = 'GraphQL';
export const ENRICHMENT_HTTP_NODE = 'HTTP Request';
export const AI_ENRICHMENT_ITEMS_NODE = 'Task Items';
export const AI_ENRICHMENT_NODE = 'Archive AI Metadata';

/** Fields every contender asks for, per partner. */
export const ENRICHMENT_FIELDS = ['id', 'iri', 'label'] as const;

/** The AI view the AI case looks tasks up in, and the columns every contender asks for, per task. */
export const AI_ENRICHMENT_VIEW = 'speech_tasks';
export const AI_ENRICHMENT_FIELDS = ['task_id', 'pid', 'status', 'processed_time'] as const;

/** Items per batch of the HTTP Request node's Batching option: that many requests in flight at once. */
export const HTTP_BATCH_SIZE = 50;

/** The GraphQL node waits for every request in turn: 10,000 of them at +50 ms take about ten minutes. */
const EXECUTE_TIMEOUT_MS = 40 * 60_000;

const PARTNER_QUERY = print(
	parse(`query GetContentPartner($id: String) {
		contentpartners(id: $id, offset: 0) { ${ENRICHMENT_FIELDS.join(' ')} }
	}`),
);

export const AI_ENRICHMENT_QUERY = print(
	parse(`query GetSpeechTask($id: uuid!) {
		${AI_ENRICHMENT_VIEW}(where: { task_id: { _eq: $id } }) { ${AI_ENRICHMENT_FIELDS.join(' ')} }
	}`),
);

export interface EnrichmentPlan {
	/** The record id each input item names, in input order. */
	ids: string[];
	/** The expected row per distinct id. */
	expected: Map<string, Record<string, unknown>>;
}

/** `items` ids over `records` (each with an `idField`), every record named about items/records times, scattered. */
function scatteredPlan(
	records: Array<Record<string, unknown>>,
	idField: string,
	fields: readonly string[],
	items: number,
): EnrichmentPlan {
	const distinct = records.length;
	// 7919 is prime, so i * 7919 mod distinct visits every record equally often (distinct not a multiple of it).
	const ids = Array.from({ length: items }, (_, index) =>
		String(records[(index * 7919) % distinct][idField]),
	);
	const expected = new Map(
		records.map((record) => [
			String(record[idField]),
			Object.fromEntries(fields.map((field) => [field, record[field] ?? null])),
		]),
	);
	return { ids, expected };
}

/**
 * `items` input items over the first `distinct` content partners, each partner named items/distinct times, in a
 * scattered (deterministic) order so repeats are not neighbours.
 */
export function planEnrichment(sandbox: Sandbox, items: number, distinct: number): EnrichmentPlan {
	const partners = sandbox.data.org.contentPartners.slice(0, distinct);
	if (partners.length < distinct)
		throw new Error(`the dataset has only ${partners.length} content partners; need ${distinct}`);
	return scatteredPlan(
		partners as unknown as Array<Record<string, unknown>>,
		'id',
		ENRICHMENT_FIELDS,
		items,
	);
}

/**
 * `items` input items over the first `distinct` speech tasks of the dataset (distinct = items: every task id once),
 * scattered like the partners.
 */
export function planAiEnrichment(
	sandbox: Sandbox,
	items: number,
	distinct: number,
): EnrichmentPlan {
	const tasks = sandbox.data.ai
		.records(AI_ENRICHMENT_VIEW, [...AI_ENRICHMENT_FIELDS])
		.slice(0, distinct);
	if (tasks.length < distinct)
		throw new Error(`the dataset has only ${tasks.length} ${AI_ENRICHMENT_VIEW}; need ${distinct}`);
	return scatteredPlan(tasks, 'task_id', AI_ENRICHMENT_FIELDS, items);
}

/** Output items whose row is exactly the record their input item named, in input order. */
export function exactRows(plan: EnrichmentPlan, rows: unknown[]): number {
	let exact = 0;
	rows.forEach((row, index) => {
		const wanted = plan.expected.get(plan.ids[index]);
		if (wanted !== undefined && JSON.stringify(row) === JSON.stringify(wanted)) exact++;
	});
	return exact;
}

/** A Code node emitting one item per id, as `{ [key]: id }`; the ids are a JSON literal, not code. */
function idItemsNode(name: string, key: string, ids: string[]): WorkflowNode {
	return code(
		name,
		`const ids = ${JSON.stringify(ids)};\nreturn ids.map((id) => ({ json: { ${key}: id } }));`,
	);
}

function partnerItemsNode(ids: string[]): WorkflowNode {
	return idItemsNode(ENRICHMENT_ITEMS_NODE, 'partner', ids);
}

function taskItemsNode(ids: string[]): WorkflowNode {
	return idItemsNode(AI_ENRICHMENT_ITEMS_NODE, 'task', ids);
}

export function ourEnrichmentWorkflow(orgCredential: CredentialRef, ids: string[]): WorkflowJson {
	return manualWorkflow('bench ours enrichment', [
		partnerItemsNode(ids),
		node(
			ENRICHMENT_ORG_NODE,
			PACKAGE_NODE_TYPES.organization,
			{
				resource: 'contentPartner',
				operation: 'get',
				contentPartner: { __rl: true, mode: 'id', value: '={{ $json.partner }}' },
				output: 'selected',
				fields: [...ENRICHMENT_FIELDS],
				options: {},
			},
			{ credentials: { archiveOrganizationApi: orgCredential } },
		),
	]);
}

export function ourAiEnrichmentWorkflow(aiCredential: CredentialRef, ids: string[]): WorkflowJson {
	return manualWorkflow('bench ours ai enrichment', [
		taskItemsNode(ids),
		node(
			AI_ENRICHMENT_NODE,
			PACKAGE_NODE_TYPES.aiMetadata,
			{
				resource: 'speechTask',
				operation: 'get',
				taskId: { __rl: true, mode: 'id', value: '={{ $json.task }}' },
				output: 'selected',
				fields: [...AI_ENRICHMENT_FIELDS],
				options: {},
			},
			{ credentials: { archiveAiMetadataApi: aiCredential } },
		),
	]);
}

/** n8n's GraphQL node: one request per input item, one after another, the item's id as `$id`. */
function graphqlNodeWorkflow(
	name: string,
	items: WorkflowNode,
	endpoint: string,
	headerCredential: CredentialRef,
	query: string,
	key: string,
): WorkflowJson {
	return manualWorkflow(name, [
		items,
		node(
			ENRICHMENT_GRAPHQL_NODE,
			'n8n-nodes-base.graphql',
			{
				authentication: 'headerAuth',
				requestMethod: 'POST',
				endpoint,
				requestFormat: 'json',
				query,
				variables: `={{ { "id": $json.${key} } }}`,
				responseFormat: 'json',
			},
			{ typeVersion: 1.1, credentials: { httpHeaderAuth: headerCredential } },
		),
	]);
}

/**
 * A string literal for inside an n8n expression: n8n ends an expression at the first `}}`, even inside a string, so
 * closing braces (a nested `where` has two in a row) are written as the escape `\u007d`.
 */
export function expressionString(text: string): string {
	return JSON.stringify(text).replace(/}/g, '\\u007d');
}

/** n8n's HTTP Request node with Batching: one POST per item, HTTP_BATCH_SIZE of them at once. */
function httpNodeWorkflow(
	name: string,
	items: WorkflowNode,
	url: string,
	headerCredential: CredentialRef,
	query: string,
	operationName: string,
	key: string,
): WorkflowJson {
	return manualWorkflow(name, [
		items,
		node(
			ENRICHMENT_HTTP_NODE,
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'json',
				jsonBody: `={{ JSON.stringify({ query: ${expressionString(query)}, variables: { id: $json.${key} }, operationName: ${JSON.stringify(operationName)} }) }}`,
				options: { batching: { batch: { batchSize: HTTP_BATCH_SIZE, batchInterval: 0 } } },
			},
			{ typeVersion: 4.2, credentials: { httpHeaderAuth: headerCredential } },
		),
	]);
}

export function graphqlEnrichmentWorkflow(
	apiUrl: string,
	headerCredential: CredentialRef,
	ids: string[],
): WorkflowJson {
	return graphqlNodeWorkflow(
		'bench graphql enrichment',
		partnerItemsNode(ids),
		apiUrl,
		headerCredential,
		PARTNER_QUERY,
		'partner',
	);
}

export function httpEnrichmentWorkflow(
	apiUrl: string,
	headerCredential: CredentialRef,
	ids: string[],
): WorkflowJson {
	return httpNodeWorkflow(
		'bench http enrichment',
		partnerItemsNode(ids),
		apiUrl,
		headerCredential,
		PARTNER_QUERY,
		'GetContentPartner',
		'partner',
	);
}

export function graphqlAiEnrichmentWorkflow(
	graphqlUrl: string,
	headerCredential: CredentialRef,
	ids: string[],
): WorkflowJson {
	return graphqlNodeWorkflow(
		'bench graphql ai enrichment',
		taskItemsNode(ids),
		graphqlUrl,
		headerCredential,
		AI_ENRICHMENT_QUERY,
		'task',
	);
}

export function httpAiEnrichmentWorkflow(
	graphqlUrl: string,
	headerCredential: CredentialRef,
	ids: string[],
): WorkflowJson {
	return httpNodeWorkflow(
		'bench http ai enrichment',
		taskItemsNode(ids),
		graphqlUrl,
		headerCredential,
		AI_ENRICHMENT_QUERY,
		'GetSpeechTask',
		'task',
	);
}

/** What differs between the two cases: the service asked, what is looked up, our node, the API's root field. */
export interface EnrichmentTarget {
	service: 'ai' | 'org';
	subject: string;
	ourContender: string;
	ourNode: string;
	rootField: string;
}

export const ORG_ENRICHMENT: EnrichmentTarget = {
	service: 'org',
	subject: 'content partner',
	ourContender: 'Archive Organization (Get, batched)',
	ourNode: ENRICHMENT_ORG_NODE,
	rootField: 'contentpartners',
};

export const AI_ENRICHMENT: EnrichmentTarget = {
	service: 'ai',
	subject: 'speech task',
	ourContender: 'Archive AI Metadata (Get, batched)',
	ourNode: AI_ENRICHMENT_NODE,
	rootField: AI_ENRICHMENT_VIEW,
};

export interface EnrichmentSetup {
	n8n: N8nInstance;
	sandbox: Sandbox;
	target: EnrichmentTarget;
	/** Our node's credential: Organization or AI Metadata, as the target's service. */
	ourCredential: CredentialRef;
	/** A header credential with a token of the target's service, for the GraphQL and HTTP Request nodes. */
	headerCredential: CredentialRef;
	items: number;
	distinct: number;
	latencyMs: number;
	packageBuilt: boolean;
	log: (line: string) => void;
}

export function planFor(setup: EnrichmentSetup): EnrichmentPlan {
	return setup.target.service === 'org'
		? planEnrichment(setup.sandbox, setup.items, setup.distinct)
		: planAiEnrichment(setup.sandbox, setup.items, setup.distinct);
}

export function enrichmentWorkflows(
	setup: EnrichmentSetup,
	plan: EnrichmentPlan,
): Record<string, WorkflowJson> {
	const { sandbox, ourCredential, headerCredential } = setup;
	if (setup.target.service === 'ai') {
		const url = sandbox.ai.graphqlUrl;
		return {
			...(setup.packageBuilt ? { ours: ourAiEnrichmentWorkflow(ourCredential, plan.ids) } : {}),
			http: httpAiEnrichmentWorkflow(url, headerCredential, plan.ids),
			graphql: graphqlAiEnrichmentWorkflow(url, headerCredential, plan.ids),
		};
	}
	const apiUrl = sandbox.org.apiUrl;
	return {
		...(setup.packageBuilt ? { ours: ourEnrichmentWorkflow(ourCredential, plan.ids) } : {}),
		http: httpEnrichmentWorkflow(apiUrl, headerCredential, plan.ids),
		graphql: graphqlEnrichmentWorkflow(apiUrl, headerCredential, plan.ids),
	};
}

export interface EnrichmentCase {
	contender: string;
	inputItems: number;
	outputItems: number;
	/** Output items whose row is exactly their input item's record, in input order. */
	exactRows: number;
	graphqlRequests: number;
	tokenRequests: number;
	nodeMs: number;
	executionMs: number;
	processWallMs: number;
	error?: string;
}

export interface EnrichmentResult {
	service: 'ai' | 'org';
	subject: string;
	inputItems: number;
	distinctIds: number;
	latencyMs: number;
	cases: EnrichmentCase[];
	/** Our requests and node time over the GraphQL node's (one request per item). */
	requestsOverOnePerItem?: number;
	timeOverOnePerItem?: number;
}

/** The rows each contender gave, in output order: ours one item per row, the others the API's answer per item. */
function rowsOf(run: CliRun, nodeName: string, target: EnrichmentTarget): unknown[] {
	const items = run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
	if (nodeName === target.ourNode) return items.map((item) => item.json);
	return items.map((item) => {
		const rows = (item.json as { data?: Record<string, unknown> }).data?.[target.rootField];
		return Array.isArray(rows) ? (rows as unknown[])[0] : undefined;
	});
}

function failedCase(
	contender: string,
	plan: EnrichmentPlan,
	requests: RequestCounts,
	target: EnrichmentTarget,
	error: string,
): EnrichmentCase {
	return {
		contender,
		inputItems: plan.ids.length,
		outputItems: 0,
		exactRows: 0,
		graphqlRequests: target.service === 'ai' ? requests.aiGraphql : requests.orgGraphql,
		tokenRequests: target.service === 'ai' ? requests.aiToken : requests.orgToken,
		nodeMs: Number.NaN,
		executionMs: Number.NaN,
		processWallMs: Number.NaN,
		error,
	};
}

async function enrichmentCase(
	setup: EnrichmentSetup,
	plan: EnrichmentPlan,
	workflowId: string,
	contender: string,
	nodeName: string,
): Promise<EnrichmentCase> {
	const { target } = setup;
	setup.log(
		`enrichment (${target.subject}): ${contender}, ${plan.ids.length} items, +${setup.latencyMs} ms`,
	);
	const before = snapshot(setup.sandbox);
	let measured;
	try {
		measured = await executeMeasured(
			setup.n8n,
			workflowId,
			(run) => {
				const rows = rowsOf(run, nodeName, target);
				return { outputItems: rows.length, exactRows: exactRows(plan, rows) };
			},
			EXECUTE_TIMEOUT_MS,
		);
	} catch (error) {
		// A run that printed nothing (its process killed) is that contender's failure; the others' figures stand.
		const message = setup.n8n.redact((error as Error).message).split('\n')[0];
		setup.log(`enrichment (${target.subject}): ${contender} failed: ${message}`);
		return failedCase(contender, plan, countsSince(setup.sandbox, before), target, message);
	}
	const requests = countsSince(setup.sandbox, before);
	const { outputItems, exactRows: exact } = measured.checks;
	const error =
		measured.error ??
		measured.nodes[nodeName]?.error ??
		(exact === plan.ids.length && outputItems === plan.ids.length
			? undefined
			: `${exact} of ${plan.ids.length} rows exact (${outputItems} output items)`);
	return {
		contender,
		inputItems: plan.ids.length,
		outputItems,
		exactRows: exact,
		graphqlRequests: target.service === 'ai' ? requests.aiGraphql : requests.orgGraphql,
		tokenRequests: target.service === 'ai' ? requests.aiToken : requests.orgToken,
		nodeMs: measured.nodes[nodeName]?.executionTimeMs ?? Number.NaN,
		executionMs: measured.executionMs,
		processWallMs: Math.round(measured.processWallMs),
		...(error === undefined ? {} : { error }),
	};
}

export async function runEnrichment(
	setup: EnrichmentSetup,
	plan: EnrichmentPlan,
	ids: Record<string, string>,
): Promise<EnrichmentResult> {
	const { target } = setup;
	const cases: EnrichmentCase[] = [];
	if (setup.latencyMs > 0) setup.sandbox.faults.set(target.service, { slowMs: setup.latencyMs });
	try {
		if (ids.ours) {
			cases.push(await enrichmentCase(setup, plan, ids.ours, target.ourContender, target.ourNode));
		}
		cases.push(
			await enrichmentCase(
				setup,
				plan,
				ids.http,
				`HTTP Request (Batching, ${HTTP_BATCH_SIZE} at once)`,
				ENRICHMENT_HTTP_NODE,
			),
		);
		cases.push(
			await enrichmentCase(
				setup,
				plan,
				ids.graphql,
				'GraphQL node (1 request per item)',
				ENRICHMENT_GRAPHQL_NODE,
			),
		);
	} finally {
		setup.sandbox.faults.clear(target.service);
	}
	const ours = cases.find((each) => each.contender === target.ourContender);
	const onePerItem = cases.find((each) => each.contender.startsWith('GraphQL'));
	return {
		service: target.service,
		subject: target.subject,
		inputItems: plan.ids.length,
		distinctIds: plan.expected.size,
		latencyMs: setup.latencyMs,
		cases,
		...(ours && onePerItem
			? {
					// Not rounded to two decimals: a few requests over a thousand would print as 0.
					requestsOverOnePerItem:
						onePerItem.graphqlRequests > 0
							? ours.graphqlRequests / onePerItem.graphqlRequests
							: Number.NaN,
					timeOverOnePerItem: ratio(ours.nodeMs, onePerItem.nodeMs),
				}
			: {}),
	};
}

export function enrichmentSection(result: EnrichmentResult): string {
	const table = markdownTable(
		[
			'Contender',
			'Input items',
			'Output items',
			'Rows exact',
			'GraphQL requests',
			'Token requests',
			'Node time ms',
			'Execution ms',
			'Process ms',
			'Error',
		],
		result.cases.map((each) => [
			each.contender,
			each.inputItems,
			each.outputItems,
			each.exactRows,
			each.graphqlRequests,
			each.tokenRequests,
			each.nodeMs,
			each.executionMs,
			each.processWallMs,
			each.error,
		]),
	);
	return [
		`## Enrichment: Get ${result.subject} for ${result.inputItems.toLocaleString('en-US')} input items (${result.distinctIds.toLocaleString('en-US')} distinct ${result.subject}s, +${result.latencyMs} ms per request)`,
		table,
		`Our requests (introspection included) / one request per item: ${verdict(result.requestsOverOnePerItem, 0.05, undefined, 2)}. Our node's time / one request per item: ${verdict(result.timeOverOnePerItem, 0.2)}.`,
	].join('\n\n');
}
