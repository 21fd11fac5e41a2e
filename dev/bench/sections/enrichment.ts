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
import { countsSince, snapshot } from '../lib/counters';
import { executeMeasured } from '../lib/execute';
import { markdownTable, verdict } from '../lib/report';
import { ratio } from '../lib/stats';

/**
 * Enrichment (issue 26 item 1): N input items naming content partners by id, many of them the same, each item
 * enriched with its partner. Our Organization Get (distinct keys in aliased batches) against n8n's GraphQL node (one
 * request per item) and the HTTP Request node with its Batching option (one request per item, a batch in flight at
 * once), with a delay per GraphQL request on the emulator. Every contender asks for the same fields.
 */

export const ENRICHMENT_ITEMS_NODE = 'Partner Items';
export const ENRICHMENT_ORG_NODE = 'Archive Organization';
export const ENRICHMENT_GRAPHQL_NODE = 'GraphQL';
export const ENRICHMENT_HTTP_NODE = 'HTTP Request';

/** Fields every contender asks for, per partner. */
export const ENRICHMENT_FIELDS = ['id', 'iri', 'label'] as const;

/** Items per batch of the HTTP Request node's Batching option: that many requests in flight at once. */
export const HTTP_BATCH_SIZE = 50;

/** The GraphQL node waits for every request in turn: 10,000 of them at +50 ms take about ten minutes. */
const EXECUTE_TIMEOUT_MS = 40 * 60_000;

const PARTNER_QUERY = print(
	parse(`query GetContentPartner($id: String) {
		contentpartners(id: $id, offset: 0) { ${ENRICHMENT_FIELDS.join(' ')} }
	}`),
);

export interface EnrichmentPlan {
	/** The partner id each input item names, in input order. */
	ids: string[];
	/** The expected row per distinct id. */
	expected: Map<string, Record<string, unknown>>;
}

/**
 * `items` input items over the first `distinct` content partners, each partner named items/distinct times, in a
 * scattered (deterministic) order so repeats are not neighbours.
 */
export function planEnrichment(sandbox: Sandbox, items: number, distinct: number): EnrichmentPlan {
	const partners = sandbox.data.org.contentPartners.slice(0, distinct);
	if (partners.length < distinct)
		throw new Error(`the dataset has only ${partners.length} content partners; need ${distinct}`);
	// 7919 is prime, so i * 7919 mod distinct visits every partner equally often.
	const ids = Array.from({ length: items }, (_, index) => partners[(index * 7919) % distinct].id);
	const expected = new Map(
		partners.map((partner) => [
			partner.id,
			Object.fromEntries(
				ENRICHMENT_FIELDS.map((field) => [
					field,
					(partner as unknown as Record<string, unknown>)[field] ?? null,
				]),
			),
		]),
	);
	return { ids, expected };
}

/** Output items whose row is exactly the partner their input item named, in input order. */
export function exactRows(plan: EnrichmentPlan, rows: unknown[]): number {
	let exact = 0;
	rows.forEach((row, index) => {
		const wanted = plan.expected.get(plan.ids[index]);
		if (wanted !== undefined && JSON.stringify(row) === JSON.stringify(wanted)) exact++;
	});
	return exact;
}

/** A Code node emitting one item per partner id; the ids are a JSON literal, not code. */
function partnerItemsNode(ids: string[]): WorkflowNode {
	return code(
		ENRICHMENT_ITEMS_NODE,
		`const ids = ${JSON.stringify(ids)};\nreturn ids.map((partner) => ({ json: { partner } }));`,
	);
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

/** n8n's GraphQL node: one request per input item, one after another. */
export function graphqlEnrichmentWorkflow(
	apiUrl: string,
	headerCredential: CredentialRef,
	ids: string[],
): WorkflowJson {
	return manualWorkflow('bench graphql enrichment', [
		partnerItemsNode(ids),
		node(
			ENRICHMENT_GRAPHQL_NODE,
			'n8n-nodes-base.graphql',
			{
				authentication: 'headerAuth',
				requestMethod: 'POST',
				endpoint: apiUrl,
				requestFormat: 'json',
				query: PARTNER_QUERY,
				variables: '={{ { "id": $json.partner } }}',
				responseFormat: 'json',
			},
			{ typeVersion: 1.1, credentials: { httpHeaderAuth: headerCredential } },
		),
	]);
}

/** n8n's HTTP Request node with Batching: one POST per item, HTTP_BATCH_SIZE of them at once. */
export function httpEnrichmentWorkflow(
	apiUrl: string,
	headerCredential: CredentialRef,
	ids: string[],
): WorkflowJson {
	return manualWorkflow('bench http enrichment', [
		partnerItemsNode(ids),
		node(
			ENRICHMENT_HTTP_NODE,
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url: apiUrl,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'json',
				jsonBody: `={{ JSON.stringify({ query: ${JSON.stringify(PARTNER_QUERY)}, variables: { id: $json.partner }, operationName: "GetContentPartner" }) }}`,
				options: { batching: { batch: { batchSize: HTTP_BATCH_SIZE, batchInterval: 0 } } },
			},
			{ typeVersion: 4.2, credentials: { httpHeaderAuth: headerCredential } },
		),
	]);
}

export interface EnrichmentSetup {
	n8n: N8nInstance;
	sandbox: Sandbox;
	orgCredential: CredentialRef;
	headerCredential: CredentialRef;
	items: number;
	distinct: number;
	latencyMs: number;
	packageBuilt: boolean;
	log: (line: string) => void;
}

export function enrichmentWorkflows(
	setup: EnrichmentSetup,
	plan: EnrichmentPlan,
): Record<string, WorkflowJson> {
	const apiUrl = setup.sandbox.org.apiUrl;
	return {
		...(setup.packageBuilt ? { ours: ourEnrichmentWorkflow(setup.orgCredential, plan.ids) } : {}),
		http: httpEnrichmentWorkflow(apiUrl, setup.headerCredential, plan.ids),
		graphql: graphqlEnrichmentWorkflow(apiUrl, setup.headerCredential, plan.ids),
	};
}

export interface EnrichmentCase {
	contender: string;
	inputItems: number;
	outputItems: number;
	/** Output items whose row is exactly their input item's partner, in input order. */
	exactRows: number;
	graphqlRequests: number;
	tokenRequests: number;
	nodeMs: number;
	executionMs: number;
	processWallMs: number;
	error?: string;
}

export interface EnrichmentResult {
	inputItems: number;
	distinctPartners: number;
	latencyMs: number;
	cases: EnrichmentCase[];
	/** Our requests and node time over the GraphQL node's (one request per item). */
	requestsOverOnePerItem?: number;
	timeOverOnePerItem?: number;
}

/** The rows each contender gave, in output order: ours one item per row, the others the API's answer per item. */
function rowsOf(run: CliRun, nodeName: string): unknown[] {
	const items = run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
	if (nodeName === ENRICHMENT_ORG_NODE) return items.map((item) => item.json);
	return items.map((item) => {
		const rows = (item.json as { data?: { contentpartners?: unknown[] } }).data?.contentpartners;
		return Array.isArray(rows) ? rows[0] : undefined;
	});
}

async function enrichmentCase(
	setup: EnrichmentSetup,
	plan: EnrichmentPlan,
	workflowId: string,
	contender: string,
	nodeName: string,
): Promise<EnrichmentCase> {
	setup.log(`enrichment: ${contender}, ${plan.ids.length} items, +${setup.latencyMs} ms`);
	const before = snapshot(setup.sandbox);
	const measured = await executeMeasured(
		setup.n8n,
		workflowId,
		(run) => {
			const rows = rowsOf(run, nodeName);
			return { outputItems: rows.length, exactRows: exactRows(plan, rows) };
		},
		EXECUTE_TIMEOUT_MS,
	);
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
		graphqlRequests: requests.orgGraphql,
		tokenRequests: requests.orgToken,
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
	const cases: EnrichmentCase[] = [];
	if (setup.latencyMs > 0) setup.sandbox.faults.set('org', { slowMs: setup.latencyMs });
	try {
		if (ids.ours) {
			cases.push(
				await enrichmentCase(
					setup,
					plan,
					ids.ours,
					'Archive Organization (Get, batched)',
					ENRICHMENT_ORG_NODE,
				),
			);
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
		setup.sandbox.faults.clear('org');
	}
	const ours = cases.find((each) => each.contender.startsWith('Archive'));
	const onePerItem = cases.find((each) => each.contender.startsWith('GraphQL'));
	return {
		inputItems: plan.ids.length,
		distinctPartners: plan.expected.size,
		latencyMs: setup.latencyMs,
		cases,
		...(ours && onePerItem
			? {
					requestsOverOnePerItem: ratio(ours.graphqlRequests, onePerItem.graphqlRequests),
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
		`## Enrichment: Get content partner for ${result.inputItems.toLocaleString('en-US')} input items (${result.distinctPartners} distinct partners, +${result.latencyMs} ms per request)`,
		table,
		`Our requests (introspection included) / one request per item: ${verdict(result.requestsOverOnePerItem, 0.05)}. Our node's time / one request per item: ${verdict(result.timeOverOnePerItem, 0.2)}.`,
	].join('\n\n');
}
