import { randomBytes } from 'node:crypto';

import { buildSuccessEvent, generateSecret, send } from '../../emulators/webhook/sender';
import type { N8nInstance } from '../../n8n/n8n';
import type { RunExecutionData } from '../../n8n/run-data';
import { BURST_SIP_TOLERANCE_SECONDS } from '../../n8n/sip-start-refusal';
import type { CredentialRef, WorkflowJson } from '../../n8n/workflows';
import { combineLoads, runSenderLoad, type SenderLoadResult } from '../lib/senders';
import { ratio, round } from '../lib/stats';
import {
	carefulUserWorkflow,
	minimalTriggerWorkflow,
	plainWebhookWorkflow,
	sipTriggerWorkflow,
	TRIGGER_DONE_NODE,
} from '../lib/workflows';

/**
 * Webhook triggers on the same running n8n, under the same load: signed Standard Webhooks deliveries from
 * concurrent senders, in rounds that alternate between the contenders.
 * - ours: the SIP Status Trigger at its default Respond setting (Immediately), and with "After the Event Is Saved";
 * - the careful user's workflow: n8n's Webhook node (Raw Body, answered by Respond to Webhook) -> Code node verifying
 *   the signature (carefulVerifier.ts) -> If -> Respond to Webhook 204, or 401 when invalid;
 * - the minimal community trigger (dev/bench/floorNode/BenchWebhookFloor.node.js): emits the body unverified, answers
 *   204 at once. What n8n charges any community trigger per delivery; ours over it is our own share;
 * - n8n's bare Webhook node (no verification), answering at once.
 * Before the load, each verifying contender gets a delivery signed with another secret and a stale one: each must be
 * answered 401 and none may reach the node after the trigger. Afterwards every delivered event must be found in
 * exactly one successful execution (0 lost, 0 duplicated).
 */

/** n8n environment the section needs: the careful user's Code node requires `crypto`, as a user's would. */
export const TRIGGER_N8N_ENV: Readonly<Record<string, string>> = {
	NODE_FUNCTION_ALLOW_BUILTIN: 'crypto',
};

export const TRIGGER_KINDS = ['ours', 'oursAfterSaved', 'careful', 'minimal', 'plain'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export interface TriggerCase {
	kind: TriggerKind;
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
	/** Verifying contenders: deliveries with a wrong signature or a stale timestamp (see RefusalCheck). */
	refusals?: RefusalCheck;
	firstError?: string;
}

/** Bad deliveries sent to a verifying contender before the load: each must get 401 and never run. */
export interface RefusalCheck {
	sent: number;
	/** Status per bad delivery, e.g. { 'wrong signature': 401, stale: 401 }. */
	statuses: Record<string, number>;
	/** Bad deliveries whose event reached the node after the trigger (must be 0). */
	ran: number;
	/** Every bad delivery answered 401 and none ran. */
	ok: boolean;
}

/** One contender's latencies and throughput over another's (below 1: the first is faster). */
export interface TriggerRatio {
	contender: TriggerKind;
	over: TriggerKind;
	p50: number;
	p99: number;
	/** Events per second of `contender` over those of `over` (above 1: the first takes more). */
	eventsPerSecond: number;
	/** The issue's target for p50 and p99 (events/s at least as high), when there is one. */
	target?: number;
}

export interface TriggerResult {
	warmupEvents: number;
	rounds: number;
	/** Timestamp Tolerance of ours and of the careful user's Code node. */
	toleranceSeconds: number;
	cases: TriggerCase[];
	/** Ours (both Respond settings) over the minimal trigger, the careful user's workflow and the bare Webhook node. */
	ratios: TriggerRatio[];
}

export interface TriggerTarget {
	kind: TriggerKind;
	contender: string;
	workflowId: string;
	url: string;
	/** Where the event's correlation id sits in the output items of the node after the trigger. */
	correlationIdOf: (json: Record<string, unknown>) => unknown;
	/** The node whose items carry the events that ran (the one after the trigger, or after the 204 answer). */
	nodeName: string;
	/** Verifies signatures: gets the bad deliveries of the refusal check. */
	verifies: boolean;
	/** A refused delivery still makes an execution (the careful user's workflow answers 401 from one). */
	refusalsExecute: boolean;
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

/**
 * Ours emits the event's fields flattened (`correlation_id`); the minimal trigger and the careful user's Code node
 * emit the event as sent (`data.correlation_id`).
 */
export const EVENT_CORRELATION = (json: Record<string, unknown>): unknown =>
	json.correlation_id ?? (json.data as Record<string, unknown> | undefined)?.correlation_id;
/** n8n's Webhook node emits `{ headers, params, query, body }`. */
export const PLAIN_WEBHOOK_CORRELATION = (json: Record<string, unknown>): unknown =>
	((json.body as Record<string, unknown> | undefined)?.data as Record<string, unknown> | undefined)
		?.correlation_id;

export interface TriggerWorkflowsOptions {
	sipCredential: CredentialRef;
	/** The credential's signing secret: the careful user's Code node holds it too. */
	secret: string;
	/** dist/ holds our trigger: without it only n8n's own contenders and the floor run. */
	packageBuilt: boolean;
}

/** The section's workflows (import and activate them before `n8n start`) and, once n8n runs, its targets. */
export interface TriggerWorkflows {
	workflows: WorkflowJson[];
	targets: (n8n: N8nInstance) => TriggerTarget[];
	/** Production URLs of our trigger's workflows (each refuses deliveries for a while after n8n starts). */
	ourUrls: (n8n: N8nInstance) => string[];
}

/** Short random path segments, so that two bench n8n instances never share a path. */
function pathSegment(): string {
	return randomBytes(6).toString('hex');
}

export function triggerWorkflows(options: TriggerWorkflowsOptions): TriggerWorkflows {
	const toleranceSeconds = BURST_SIP_TOLERANCE_SECONDS;
	const plainPath = `bench-plain-${pathSegment()}`;
	const carefulPath = `bench-careful-${pathSegment()}`;
	const ours = options.packageBuilt ? sipTriggerWorkflow(options.sipCredential) : undefined;
	const oursSaved = options.packageBuilt
		? sipTriggerWorkflow(options.sipCredential, 'afterSaved')
		: undefined;
	const careful = carefulUserWorkflow(carefulPath, options.secret, toleranceSeconds);
	const minimal = minimalTriggerWorkflow();
	const plain = plainWebhookWorkflow(plainPath);
	const webhookIdOf = (workflow: WorkflowJson) => workflow.nodes[0].webhookId ?? '';
	const ourUrl = (n8n: N8nInstance, workflow: WorkflowJson) =>
		`${n8n.baseUrl}/webhook/${webhookIdOf(workflow)}/sip-status`;
	return {
		workflows: [ours, oursSaved, careful, minimal, plain].filter(
			(each): each is WorkflowJson => each !== undefined,
		),
		ourUrls: (n8n) => [ours, oursSaved].flatMap((each) => (each ? [ourUrl(n8n, each)] : [])),
		targets: (n8n) => {
			const common = { nodeName: TRIGGER_DONE_NODE, correlationIdOf: EVENT_CORRELATION };
			const targets: TriggerTarget[] = [];
			if (ours && oursSaved) {
				targets.push(
					{
						...common,
						kind: 'ours',
						contender: 'Archive SIP Status Trigger (Respond: Immediately, the default)',
						workflowId: ours.id,
						url: ourUrl(n8n, ours),
						verifies: true,
						refusalsExecute: false,
					},
					{
						...common,
						kind: 'oursAfterSaved',
						contender: 'Archive SIP Status Trigger (Respond: After the Event Is Saved)',
						workflowId: oursSaved.id,
						url: ourUrl(n8n, oursSaved),
						verifies: true,
						refusalsExecute: false,
					},
				);
			}
			targets.push(
				{
					...common,
					kind: 'careful',
					contender:
						"Careful user's workflow: Webhook (Raw Body) -> Code (verifies) -> If -> Respond to Webhook 204 / 401",
					workflowId: careful.id,
					url: `${n8n.baseUrl}/webhook/${carefulPath}`,
					verifies: true,
					refusalsExecute: true,
				},
				{
					...common,
					kind: 'minimal',
					contender: 'Minimal community trigger (emits the body unverified)',
					workflowId: minimal.id,
					url: `${n8n.baseUrl}/webhook/${webhookIdOf(minimal)}/bench-floor`,
					verifies: false,
					refusalsExecute: false,
				},
				{
					...common,
					kind: 'plain',
					contender: "n8n's Webhook node (no verification)",
					workflowId: plain.id,
					url: `${n8n.baseUrl}/webhook/${plainPath}`,
					correlationIdOf: PLAIN_WEBHOOK_CORRELATION,
					verifies: false,
					refusalsExecute: false,
				},
			);
			return targets;
		},
	};
}

/** The issue's targets: ours over the minimal trigger at most 1.1, over the careful user's workflow at most 0.8. */
const RATIO_PAIRS: ReadonlyArray<{ contender: TriggerKind; over: TriggerKind; target?: number }> = [
	{ contender: 'ours', over: 'minimal', target: 1.1 },
	{ contender: 'ours', over: 'careful', target: 0.8 },
	{ contender: 'ours', over: 'plain' },
	{ contender: 'oursAfterSaved', over: 'minimal' },
	{ contender: 'oursAfterSaved', over: 'careful' },
	{ contender: 'careful', over: 'minimal' },
];

export function triggerRatios(cases: readonly TriggerCase[]): TriggerRatio[] {
	const byKind = new Map(cases.map((each) => [each.kind, each]));
	return RATIO_PAIRS.flatMap(({ contender, over, target }) => {
		const a = byKind.get(contender);
		const b = byKind.get(over);
		if (!a || !b) return [];
		return [
			{
				contender,
				over,
				p50: ratio(a.p50Ms, b.p50Ms),
				p99: ratio(a.p99Ms, b.p99Ms),
				eventsPerSecond: ratio(a.eventsPerSecond, b.eventsPerSecond),
				...(target === undefined ? {} : { target }),
			},
		];
	});
}

export async function runTrigger(
	setup: TriggerSetup,
	targets: TriggerTarget[],
): Promise<TriggerResult> {
	const refusals = new Map<TriggerTarget, SentRefusals>();
	for (const target of targets.filter((each) => each.verifies)) {
		refusals.set(target, await sendBadDeliveries(setup, target));
	}
	const warmups: SenderLoadResult[] = [];
	for (const target of targets) {
		setup.log(`trigger: warm-up ${setup.warmupEvents} events to ${target.contender}`);
		warmups.push(await load(setup, target, setup.warmupEvents));
	}
	// Rounds alternate between the contenders so that a change in machine load hits all alike; each round starts
	// with the next contender, so none is always the one after the same neighbour.
	const rounds: SenderLoadResult[][] = targets.map(() => []);
	for (let round = 0; round < setup.rounds; round++) {
		const events = eventsInRound(setup.events, setup.rounds, round);
		for (let step = 0; step < targets.length; step++) {
			const index = (round + step) % targets.length;
			const target = targets[index];
			setup.log(
				`trigger: round ${round + 1}/${setup.rounds}, ${events} events, ${setup.concurrency} senders -> ${target.contender}`,
			);
			rounds[index].push(await load(setup, target, events));
		}
	}
	const loads = rounds.map(combineLoads);
	const cases: TriggerCase[] = [];
	for (const [index, target] of targets.entries()) {
		const sent = refusals.get(target);
		const checked = await checkExecutions(setup, target, loads[index], warmups[index], sent);
		cases.push({ ...checked, p50ByRoundMs: rounds[index].map((each) => each.p50Ms) });
	}
	return {
		warmupEvents: setup.warmupEvents,
		rounds: setup.rounds,
		toleranceSeconds: BURST_SIP_TOLERANCE_SECONDS,
		cases,
		ratios: triggerRatios(cases),
	};
}

/** The bad deliveries sent to one contender: what each was answered, and the events' correlation ids. */
interface SentRefusals {
	statuses: Record<string, number>;
	correlationIds: string[];
}

/**
 * One delivery signed with another secret and one signed right but an hour old, one after the other. Neither may be
 * answered 2xx, and neither event may reach the node after the trigger (checked with the executions afterwards).
 */
async function sendBadDeliveries(
	setup: TriggerSetup,
	target: TriggerTarget,
): Promise<SentRefusals> {
	const bad: Array<{ name: string; secrets: string[]; staleSeconds: number }> = [
		{ name: 'wrong signature', secrets: [generateSecret(32)], staleSeconds: 0 },
		{ name: 'stale timestamp', secrets: setup.secrets, staleSeconds: 3600 },
	];
	const statuses: Record<string, number> = {};
	const correlationIds: string[] = [];
	for (const each of bad) {
		const event = buildSuccessEvent();
		correlationIds.push(event.data.correlation_id);
		const answer = await send(target.url, event, {
			secrets: each.secrets,
			staleSeconds: each.staleSeconds,
			timeoutMs: 15_000,
		});
		statuses[each.name] = answer.status;
	}
	setup.log(
		`trigger: bad deliveries to ${target.contender}: ${Object.entries(statuses)
			.map(([name, status]) => `${name} ${status}`)
			.join(', ')}`,
	);
	return { statuses, correlationIds };
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
	refusals: SentRefusals | undefined,
): Promise<Omit<TriggerCase, 'p50ByRoundMs'>> {
	const delivered = [...warmup.deliveredCorrelationIds, ...measured.deliveredCorrelationIds];
	const refusedExecutions = target.refusalsExecute ? (refusals?.correlationIds.length ?? 0) : 0;
	const finished = await waitForFinished(
		setup.n8n,
		target.workflowId,
		delivered.length + refusedExecutions,
	);
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
	const refusalCheck = refusals ? checkRefusals(refusals, seen) : undefined;
	return {
		kind: target.kind,
		contender: target.contender,
		events: measured.sent,
		concurrency: setup.concurrency,
		p50Ms: measured.p50Ms,
		p99Ms: measured.p99Ms,
		meanMs: measured.meanMs,
		maxMs: measured.maxMs,
		eventsPerSecond: round((measured.sent / measured.wallMs) * 1000, 1),
		errors: measured.errors,
		statuses: measured.statuses,
		executionsSucceeded: executions.length - failed - unfinished,
		executionsFailed: failed,
		executionsUnfinished: unfinished,
		lost,
		...(refusalCheck ? { refusals: refusalCheck } : {}),
		...(measured.firstError === undefined ? {} : { firstError: measured.firstError }),
	};
}

function checkRefusals(sent: SentRefusals, seen: ReadonlyMap<string, number>): RefusalCheck {
	const ran = sent.correlationIds.filter((id) => seen.has(id)).length;
	const statuses = Object.values(sent.statuses);
	return {
		sent: statuses.length,
		statuses: sent.statuses,
		ran,
		ok: ran === 0 && statuses.every((status) => status === 401),
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
