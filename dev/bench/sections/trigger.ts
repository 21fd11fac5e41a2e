import type { N8nInstance } from '../../n8n/n8n';
import type { RunExecutionData } from '../../n8n/run-data';
import { combineLoads, runSenderLoad, type SenderLoadResult } from '../lib/senders';
import { ratio } from '../lib/stats';
import { PLAIN_WEBHOOK_NODE, SIP_TRIGGER_NODE } from '../lib/workflows';

/**
 * The SIP Status Trigger vs n8n's plain Webhook node on the same running n8n, under the same load: signed
 * Standard Webhooks deliveries from concurrent senders. Afterwards every delivered event must be found in
 * exactly one successful execution (0 lost, 0 duplicated).
 */

export interface TriggerCase {
	contender: string;
	events: number;
	concurrency: number;
	p50Ms: number;
	p99Ms: number;
	meanMs: number;
	maxMs: number;
	eventsPerSecond: number;
	errors: number;
	statuses: Record<string, number>;
	executionsSucceeded: number;
	executionsFailed: number;
	/** Still new/running/waiting when the wait for executions ended. */
	executionsUnfinished: number;
	/** Delivered (2xx) events without a successful execution that carries them. */
	lost: number;
	/** p50 of each round, in order: shows whether latency grows with the number of events already taken. */
	p50ByRoundMs: number[];
	firstError?: string;
}

export interface TriggerResult {
	warmupEvents: number;
	rounds: number;
	cases: TriggerCase[];
	/** Our p50/p99 over the plain Webhook's (target: at most 1.2). */
	p50Ratio?: number;
	p99Ratio?: number;
	meanRatio?: number;
}

export interface TriggerTarget {
	contender: string;
	workflowId: string;
	url: string;
	/** Where the event's correlation id sits in the trigger node's output item. */
	correlationIdOf: (json: Record<string, unknown>) => unknown;
	nodeName: string;
}

export interface TriggerSetup {
	n8n: N8nInstance;
	secrets: string[];
	events: number;
	concurrency: number;
	warmupEvents: number;
	/** The events are sent in this many rounds, alternating between the contenders. */
	rounds: number;
	log: (line: string) => void;
}

/** Splits `total` events over the rounds; the first rounds take the remainder. */
export function eventsInRound(total: number, rounds: number, round: number): number {
	return Math.floor(total / rounds) + (round < total % rounds ? 1 : 0);
}

const LOAD_DEADLINE_MS = 300_000;
const UNFINISHED = new Set(['new', 'running', 'waiting']);
const EXECUTIONS_DEADLINE_MS = 180_000;

export const OUR_TRIGGER_CORRELATION = (json: Record<string, unknown>): unknown =>
	json.correlation_id ?? (json.data as Record<string, unknown> | undefined)?.correlation_id;
export const PLAIN_WEBHOOK_CORRELATION = (json: Record<string, unknown>): unknown =>
	((json.body as Record<string, unknown> | undefined)?.data as Record<string, unknown> | undefined)
		?.correlation_id;

export function triggerTargets(
	n8n: N8nInstance,
	ids: { ours?: string; plain: string },
	sipWebhookId: string | undefined,
	plainPath: string,
): TriggerTarget[] {
	const targets: TriggerTarget[] = [
		{
			contender: 'n8n Webhook node (no verification)',
			workflowId: ids.plain,
			url: `${n8n.baseUrl}/webhook/${plainPath}`,
			correlationIdOf: PLAIN_WEBHOOK_CORRELATION,
			nodeName: PLAIN_WEBHOOK_NODE,
		},
	];
	if (ids.ours && sipWebhookId) {
		targets.push({
			contender: 'Archive SIP Status Trigger (verifies signatures)',
			workflowId: ids.ours,
			url: `${n8n.baseUrl}/webhook/${sipWebhookId}/sip-status`,
			correlationIdOf: OUR_TRIGGER_CORRELATION,
			nodeName: SIP_TRIGGER_NODE,
		});
	}
	return targets;
}

export async function runTrigger(
	setup: TriggerSetup,
	targets: TriggerTarget[],
): Promise<TriggerResult> {
	const warmups: SenderLoadResult[] = [];
	for (const target of targets) {
		setup.log(`trigger: warm-up ${setup.warmupEvents} events to ${target.contender}`);
		warmups.push(await load(setup, target, setup.warmupEvents));
	}
	// Rounds alternate between the contenders so that a change in machine load hits both alike.
	const rounds: SenderLoadResult[][] = targets.map(() => []);
	for (let round = 0; round < setup.rounds; round++) {
		const events = eventsInRound(setup.events, setup.rounds, round);
		for (const [index, target] of targets.entries()) {
			setup.log(
				`trigger: round ${round + 1}/${setup.rounds}, ${events} events, ${setup.concurrency} senders -> ${target.contender}`,
			);
			rounds[index].push(await load(setup, target, events));
		}
	}
	const loads = rounds.map(combineLoads);
	const cases: TriggerCase[] = [];
	for (const [index, target] of targets.entries()) {
		const checked = await checkExecutions(setup, target, loads[index], warmups[index]);
		cases.push({ ...checked, p50ByRoundMs: rounds[index].map((each) => each.p50Ms) });
	}
	const plain = cases[0];
	const ours = cases[1];
	return {
		warmupEvents: setup.warmupEvents,
		rounds: setup.rounds,
		cases,
		...(ours
			? {
					p50Ratio: ratio(ours.p50Ms, plain.p50Ms),
					p99Ratio: ratio(ours.p99Ms, plain.p99Ms),
					meanRatio: ratio(ours.meanMs, plain.meanMs),
				}
			: {}),
	};
}

function load(
	setup: TriggerSetup,
	target: TriggerTarget,
	events: number,
): Promise<SenderLoadResult> {
	return runSenderLoad({
		url: target.url,
		secrets: setup.secrets,
		events,
		concurrency: setup.concurrency,
		deadlineMs: LOAD_DEADLINE_MS,
	});
}

async function checkExecutions(
	setup: TriggerSetup,
	target: TriggerTarget,
	measured: SenderLoadResult,
	warmup: SenderLoadResult,
): Promise<Omit<TriggerCase, 'p50ByRoundMs'>> {
	const delivered = [...warmup.deliveredCorrelationIds, ...measured.deliveredCorrelationIds];
	const finished = await waitForFinished(setup.n8n, target.workflowId, delivered.length);
	const executions = await setup.n8n.executions(target.workflowId);
	const seen = new Map<string, number>();
	let failed = 0;
	let unfinished = 0;
	for (const execution of executions) {
		if (UNFINISHED.has(execution.status)) {
			unfinished++;
			continue;
		}
		if (execution.status !== 'success') {
			failed++;
			continue;
		}
		for (const id of correlationIds(execution.data, target)) seen.set(id, (seen.get(id) ?? 0) + 1);
	}
	const lost = delivered.filter((id) => seen.get(id) !== 1).length;
	setup.log(`trigger: ${target.contender}: ${finished} executions finished, ${lost} lost`);
	return {
		contender: target.contender,
		events: measured.sent,
		concurrency: setup.concurrency,
		p50Ms: measured.p50Ms,
		p99Ms: measured.p99Ms,
		meanMs: measured.meanMs,
		maxMs: measured.maxMs,
		eventsPerSecond: Math.round((measured.sent / measured.wallMs) * 1000),
		errors: measured.errors,
		statuses: measured.statuses,
		executionsSucceeded: executions.length - failed - unfinished,
		executionsFailed: failed,
		executionsUnfinished: unfinished,
		lost,
		...(measured.firstError === undefined ? {} : { firstError: measured.firstError }),
	};
}

function correlationIds(data: RunExecutionData | undefined, target: TriggerTarget): string[] {
	const items =
		data?.resultData.runData[target.nodeName]?.[0]?.data?.main?.flatMap((output) => output ?? []) ??
		[];
	return items.map((item) => String(target.correlationIdOf(item.json)));
}

/** Polls the execution counts (cheap query, no run data) until `expected` have finished or the deadline passes. */
async function waitForFinished(
	n8n: N8nInstance,
	workflowId: string,
	expected: number,
): Promise<number> {
	const deadline = Date.now() + EXECUTIONS_DEADLINE_MS;
	for (;;) {
		const [row] = await n8n.query<{ finished: number }>(
			`SELECT COUNT(*) AS finished FROM execution_entity WHERE workflowId = '${workflowId.replace(/'/g, "''")}' AND status NOT IN (${[...UNFINISHED].map((status) => `'${status}'`).join(', ')})`,
		);
		const finished = Number(row?.finished ?? 0);
		if (finished >= expected || Date.now() > deadline) return finished;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}
