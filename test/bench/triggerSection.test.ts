import type { N8nInstance } from '../../dev/n8n/n8n';
import {
	triggerRatios,
	triggerWorkflows,
	type TriggerCase,
	type TriggerKind,
} from '../../dev/bench/sections/trigger';
import { triggerSection } from '../../dev/bench/lib/results';

/** The trigger section's contenders and figures, without n8n (test/e2e/bench-trigger.test.ts runs them in n8n). */

const n8n = { baseUrl: 'http://127.0.0.1:5678' } as N8nInstance;
const plan = (packageBuilt: boolean) =>
	triggerWorkflows({
		sipCredential: { id: 'c1', name: 'sip' },
		secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
		packageBuilt,
	});

function triggerCase(
	kind: TriggerKind,
	p50Ms: number,
	p99Ms: number,
	eventsPerSecond: number,
): TriggerCase {
	return {
		kind,
		contender: kind,
		events: 600,
		concurrency: 20,
		p50Ms,
		p99Ms,
		meanMs: p50Ms,
		maxMs: p99Ms,
		eventsPerSecond,
		errors: 0,
		statuses: { 204: 600 },
		executionsSucceeded: 620,
		executionsFailed: 0,
		executionsUnfinished: 0,
		lost: 0,
		p50ByRoundMs: [p50Ms, p50Ms],
	};
}

describe('trigger bench contenders', () => {
	it('runs ours at both Respond settings, the careful workflow, the minimal trigger and the Webhook node', () => {
		const { workflows, targets, ourUrls } = plan(true);
		expect(workflows).toHaveLength(5);
		expect(targets(n8n).map((each) => [each.kind, each.verifies, each.refusalsExecute])).toEqual([
			['ours', true, false],
			['oursAfterSaved', true, false],
			['careful', true, true],
			['minimal', false, false],
			['plain', false, false],
		]);
		expect(ourUrls(n8n)).toEqual(
			targets(n8n)
				.filter((each) => each.kind.startsWith('ours'))
				.map((each) => each.url),
		);
		// Ours at the node's default Respond setting (no parameter), and with After the Event Is Saved.
		expect(workflows[0].nodes[0].parameters.respond).toBeUndefined();
		expect(workflows[1].nodes[0].parameters.respond).toBe('afterSaved');
		for (const target of targets(n8n)) expect(target.nodeName).toBe('Done');
	});

	it('wires the careful workflow: raw body, answered by Respond to Webhook 204 when verified, else 401', () => {
		const careful = plan(true).workflows[2];
		const byName = new Map(careful.nodes.map((each) => [each.name, each]));
		const webhook = careful.nodes[0];
		expect(webhook.type).toBe('n8n-nodes-base.webhook');
		expect(webhook.parameters).toMatchObject({
			responseMode: 'responseNode',
			options: { rawBody: true },
		});
		const next = (from: string, output = 0) =>
			careful.connections[from]?.main?.[output]?.map((each) => each.node);
		expect(next(webhook.name)).toEqual(['Verify Signature']);
		expect(next('Verify Signature')).toEqual(['Verified?']);
		const [accept] = next('Verified?', 0) ?? [];
		const [refuse] = next('Verified?', 1) ?? [];
		expect(byName.get(accept)?.parameters.options).toEqual({ responseCode: 204 });
		expect(byName.get(refuse)?.parameters.options).toEqual({ responseCode: 401 });
		expect(next(accept)).toEqual(['Done']);
		expect(next(refuse)).toBeUndefined();
	});

	it("without our built trigger, runs n8n's own contenders and the minimal trigger only", () => {
		const { workflows, targets, ourUrls } = plan(false);
		expect(workflows).toHaveLength(3);
		expect(targets(n8n).map((each) => each.kind)).toEqual(['careful', 'minimal', 'plain']);
		expect(ourUrls(n8n)).toEqual([]);
	});
});

describe('trigger bench ratios', () => {
	const cases = [
		triggerCase('ours', 500, 800, 40),
		triggerCase('oursAfterSaved', 600, 900, 33),
		triggerCase('careful', 1000, 1600, 20),
		triggerCase('minimal', 480, 760, 41),
		triggerCase('plain', 250, 400, 80),
	];

	it('gives ours over the minimal trigger and the careful workflow, with the issue targets', () => {
		const ratios = triggerRatios(cases);
		expect(ratios.find((each) => each.contender === 'ours' && each.over === 'minimal')).toEqual({
			contender: 'ours',
			over: 'minimal',
			p50: 1.04,
			p99: 1.05,
			eventsPerSecond: 0.98,
			target: 1.1,
		});
		expect(ratios.find((each) => each.contender === 'ours' && each.over === 'careful')).toEqual({
			contender: 'ours',
			over: 'careful',
			p50: 0.5,
			p99: 0.5,
			eventsPerSecond: 2,
			target: 0.8,
		});
		expect(ratios).toHaveLength(6);
	});

	it('leaves out the pairs whose contenders did not run, and prints the table', () => {
		const withoutOurs = cases.filter((each) => !each.kind.startsWith('ours'));
		expect(triggerRatios(withoutOurs).map((each) => [each.contender, each.over])).toEqual([
			['careful', 'minimal'],
		]);
		const section = triggerSection({
			warmupEvents: 20,
			rounds: 2,
			toleranceSeconds: 15,
			cases,
			ratios: triggerRatios(cases),
		});
		expect(section).toContain(
			'| Ours (Immediately) / Minimal community trigger | 1.04 | 1.05 | 0.98 | p50 and p99 1.05 met (target ≤ 1.1); events/s 0.98 MISSED (target ≥ 1) |',
		);
		expect(section).toContain(
			"| Ours (Immediately) / Careful user's workflow | 0.5 | 0.5 | 2 | p50 and p99 0.5 met (target ≤ 0.8); events/s 2 met (target ≥ 1) |",
		);
	});
});
