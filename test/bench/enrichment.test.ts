import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../dev/harness/sandboxFixture';
import { requestCounts, runOrganizationNode } from '../nodes/ArchiveOrganization/helpers';
import {
	ENRICHMENT_ORG_NODE,
	exactRows,
	ourEnrichmentWorkflow,
	planEnrichment,
} from '../../dev/bench/sections/enrichment';

/**
 * A reduced run of the enrichment benchmark: our node with the workflow's own parameters, on the plan's items,
 * through the harness against the emulator. Behaviour only (no timings): every row exact, few requests.
 */

const sandbox = useSandbox({ rows: 200 });

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
});
