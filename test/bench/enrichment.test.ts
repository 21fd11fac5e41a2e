import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../dev/harness/sandboxFixture';
import { request } from '../../dev/n8n/http';
import { graphqlRequests, jsonOf, runAi } from '../nodes/ArchiveAiMetadata/helpers';
import { requestCounts, runOrganizationNode } from '../nodes/ArchiveOrganization/helpers';
import { fetchAiToken } from '../../dev/bench/lib/tokens';
import {
	AI_ENRICHMENT_NODE,
	AI_ENRICHMENT_QUERY,
	AI_ENRICHMENT_VIEW,
	ENRICHMENT_ORG_NODE,
	ENRICHMENT_HTTP_NODE,
	exactRows,
	httpAiEnrichmentWorkflow,
	ourAiEnrichmentWorkflow,
	ourEnrichmentWorkflow,
	planAiEnrichment,
	planEnrichment,
} from '../../dev/bench/sections/enrichment';

/**
 * A reduced run of the enrichment benchmark: our nodes with the workflows' own parameters, on the plans' items,
 * through the harness against the emulator. Behaviour only (no timings): every row exact, few requests.
 */

// 1,200 speech tasks: the AI case's 1,000 distinct task ids take two batches of 500.
const sandbox = useSandbox({ rows: 1200 });

describe('enrichment benchmark (smoke)', () => {
	it('plans repeated partners evenly and checks rows exactly', () => {
		const plan = planEnrichment(sandbox(), 120, 30);
		expect(new Set(plan.ids).size).toBe(30);
		const counts = new Map<string, number>();
		for (const id of plan.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
		expect(new Set(counts.values())).toEqual(new Set([4]));
		const rows = plan.ids.map((id) => plan.expected.get(id));
		expect(exactRows(plan, rows)).toBe(120);
		// A row of another partner, or a row out of place, is not exact.
		expect(exactRows(plan, [rows[1], ...rows.slice(1)])).toBe(119);
		expect(exactRows(plan, rows.slice(1))).toBeLessThan(119);
	});

	it("our node, as the benchmark's workflow sets it, gives every item its exact row in two requests", async () => {
		const plan = planEnrichment(sandbox(), 120, 30);
		const workflow = ourEnrichmentWorkflow({ id: 'unused', name: 'unused' }, plan.ids);
		const ours = workflow.nodes.find((each) => each.name === ENRICHMENT_ORG_NODE)!;
		const result = await runOrganizationNode(sandbox(), ours.parameters as INodeParameters, {
			input: plan.ids.map((partner) => ({ partner })),
		});
		expect(result.error).toBeUndefined();
		const rows = (result.outputs[0] ?? []).map((item) => item.json);
		expect(exactRows(plan, rows)).toBe(120);
		// The introspection, then one request for the 30 distinct partners.
		expect(requestCounts(sandbox()).graphql).toBe(2);
	});

	it("AI: our node, as the benchmark's workflow sets it, gives 1,000 distinct task ids their exact rows in three requests", async () => {
		const plan = planAiEnrichment(sandbox(), 1000, 1000);
		expect(new Set(plan.ids).size).toBe(1000);
		const workflow = ourAiEnrichmentWorkflow({ id: 'unused', name: 'unused' }, plan.ids);
		const ours = workflow.nodes.find((each) => each.name === AI_ENRICHMENT_NODE)!;
		const result = await runAi(sandbox(), ours.parameters as INodeParameters, {
			input: plan.ids.map((task) => ({ task })),
		});
		expect(result.error).toBeUndefined();
		expect(exactRows(plan, jsonOf(result))).toBe(1000);
		// The introspection, then the 1,000 distinct task ids in two batches of 500.
		expect(graphqlRequests(sandbox())).toBe(3);
	});

	it('AI: repeated task ids are asked once, and every item still gets its own row', async () => {
		const plan = planAiEnrichment(sandbox(), 300, 60);
		const workflow = ourAiEnrichmentWorkflow({ id: 'unused', name: 'unused' }, plan.ids);
		const ours = workflow.nodes.find((each) => each.name === AI_ENRICHMENT_NODE)!;
		const result = await runAi(sandbox(), ours.parameters as INodeParameters, {
			input: plan.ids.map((task) => ({ task })),
		});
		expect(result.error).toBeUndefined();
		expect(exactRows(plan, jsonOf(result))).toBe(300);
		expect(graphqlRequests(sandbox())).toBe(2);
	});

	it("AI: the one-request-per-item contenders' query answers each item with exactly its row", async () => {
		const plan = planAiEnrichment(sandbox(), 3, 3);
		const token = await fetchAiToken(sandbox());
		const rows: unknown[] = [];
		for (const id of plan.ids) {
			const response = await request(sandbox().ai.graphqlUrl, {
				method: 'POST',
				headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
				body: JSON.stringify({
					query: AI_ENRICHMENT_QUERY,
					variables: { id },
					operationName: 'GetSpeechTask',
				}),
			});
			expect(response.status).toBe(200);
			const body = JSON.parse(response.body) as { data: Record<string, unknown[]> };
			expect(body.data[AI_ENRICHMENT_VIEW]).toHaveLength(1);
			rows.push(body.data[AI_ENRICHMENT_VIEW][0]);
		}
		expect(exactRows(plan, rows)).toBe(3);
	});

	it("AI: the HTTP Request node's body expression holds no `}}` before its end, and gives the query with the item's id", () => {
		const workflow = httpAiEnrichmentWorkflow(
			'http://127.0.0.1:1/graphql',
			{ id: 'h', name: 'h' },
			['x'],
		);
		const http = workflow.nodes.find((each) => each.name === ENRICHMENT_HTTP_NODE)!;
		const body = String(http.parameters.jsonBody);
		expect(body.startsWith('={{ ') && body.endsWith(' }}')).toBe(true);
		// n8n ends an expression at the first `}}`: the nested `where` of the query must not end it early.
		const inner = body.slice(4, -3);
		expect(inner).not.toContain('}}');
		// eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluates the expression the bench workflow gives n8n
		const evaluate = new Function('$json', `return ${inner};`) as (json: unknown) => string;
		expect(JSON.parse(evaluate({ task: 'abc' }))).toEqual({
			query: AI_ENRICHMENT_QUERY,
			variables: { id: 'abc' },
			operationName: 'GetSpeechTask',
		});
	});
});
