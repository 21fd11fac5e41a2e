import { randomUUID } from 'node:crypto';

import { request } from '../../n8n/http';
import { waitPastStartRefusal } from '../../n8n/sip-start-refusal';
import {
	ATTEMPT_TIMEOUT_MS,
	COMPRESSED_RETRY_SECONDS,
	receiverWorkflow,
	type EventSink,
	type Receiver,
} from '../lib/fault-burst';
import type { QueueCluster } from './cluster';
import {
	latencySliceSize,
	percentile,
	type LatencySummary,
	type SoakFigures,
	type SoakSettings,
} from './figures';
import { newMessageId, routedProcessor, signedHeaders, sipEvent, type Delivery } from './sip';

// Issue 23 item 6: the SIP trigger under sustained volume in real n8n queue mode, no faults. Signed events at a
// steady rate, each sent to the processor a load balancer hashing `webhook-id` picks; a share of them sent again by
// the sender after their 2xx (an answer lost on the way), a share replayed byte for byte by an attacker later (the
// receiver's Timestamp Tolerance is longer than the replay delay, so the replay record, not the timestamp, must
// refuse them). Used by the full soak (dev/e2e/queue/soak.ts) and by the reduced one in `npm test`
// (test/e2e/queue/queue-mode.test.ts).

/** The full soak of issue 23 item 6. */
export const FULL_SOAK: SoakSettings = {
	events: 20_000,
	ratePerSecond: 6,
	retryShare: 0.05,
	replayShare: 0.01,
	replayAfterMs: 600_000,
	respond: 'afterSaved',
};

interface EventOutcome {
	id: string;
	/** Latency of the first attempt (ms); NaN when it got no answer. */
	firstLatencyMs: number;
	/** Status of each attempt until the first 2xx (0: no answer). */
	attempts: number[];
	answered: boolean;
	/** The sender's extra attempt after the 2xx, and the attacker's copy: their statuses, when sent. */
	retryAfterAnswer?: number;
	replay?: number;
}

/** How much longer than the replay delay the receiver's Timestamp Tolerance is: the replays must pass the timestamp check. */
const REPLAY_TOLERANCE_MARGIN_SECONDS = 30;

/**
 * The receiver's Timestamp Tolerance: the replay delay + 30 s, so that only the replay record can refuse a replay, and
 * no longer, since each webhook processor refuses every delivery until its start + the tolerance (the soak waits for
 * that before sending). The trigger allows at most an hour.
 */
export function soakToleranceSeconds(replayAfterMs: number): number {
	const seconds = Math.ceil(replayAfterMs / 1000) + REPLAY_TOLERANCE_MARGIN_SECONDS;
	if (seconds > 3600)
		throw new Error(
			`replays ${replayAfterMs / 1000} s later need a Timestamp Tolerance of ${seconds} s; the trigger allows 3600`,
		);
	return seconds;
}

/**
 * The receiver the soak sends to: the SIP trigger in the settings' Respond mode, its tolerance just above the replay
 * delay (soakToleranceSeconds), reporting each event it runs to the sink. Import and activate its workflow before the
 * cluster starts.
 */
export function soakReceiver(
	settings: Pick<SoakSettings, 'respond' | 'replayAfterMs'>,
	baseUrl: string,
	credential: { id: string; name: string },
	sinkUrl: string,
): Receiver {
	const receiver = receiverWorkflow(settings.respond, baseUrl, credential, sinkUrl);
	const trigger = receiver.workflow.nodes.find((each) => each.name === 'SIP Status');
	if (!trigger) throw new Error('the receiver workflow has no SIP Status node');
	trigger.parameters = {
		...trigger.parameters,
		options: { toleranceSeconds: soakToleranceSeconds(settings.replayAfterMs) },
	};
	return receiver;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One attempt; status 0 when no answer came within the sender's timeout. */
async function attempt(
	url: string,
	headers: Record<string, string>,
	body: string,
): Promise<{ status: number; latencyMs: number }> {
	const started = performance.now();
	const answer = await request(url, {
		method: 'POST',
		headers,
		body,
		timeoutMs: ATTEMPT_TIMEOUT_MS,
	}).catch(() => undefined);
	return { status: answer?.status ?? 0, latencyMs: performance.now() - started };
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** One event as the archive's sender delivers it, plus the extra attempts the soak asks for. */
async function deliverEvent(
	url: string,
	secret: string,
	delivery: Delivery,
	extras: { retryAfterAnswer: boolean; replayAt?: number },
): Promise<EventOutcome> {
	const outcome: EventOutcome = {
		id: delivery.id,
		firstLatencyMs: Number.NaN,
		attempts: [],
		answered: false,
	};
	let captured: Record<string, string> | undefined;
	for (let index = 0; index <= COMPRESSED_RETRY_SECONDS.length; index++) {
		const headers = signedHeaders(secret, delivery);
		captured ??= headers;
		const { status, latencyMs } = await attempt(url, headers, delivery.body);
		if (index === 0 && status !== 0) outcome.firstLatencyMs = latencyMs;
		outcome.attempts.push(status);
		if (is2xx(status)) {
			outcome.answered = true;
			break;
		}
		if (index < COMPRESSED_RETRY_SECONDS.length)
			await sleep(COMPRESSED_RETRY_SECONDS[index] * 1000);
	}
	if (outcome.answered && extras.retryAfterAnswer) {
		// The 2xx was lost on its way back: the sender tries again, signed afresh.
		await sleep(Math.random() * 5_000);
		outcome.retryAfterAnswer = (
			await attempt(url, signedHeaders(secret, delivery), delivery.body)
		).status;
	}
	if (extras.replayAt !== undefined && captured) {
		await sleep(extras.replayAt - performance.now());
		outcome.replay = (await attempt(url, captured, delivery.body)).status;
	}
	return outcome;
}

function latencySummary(outcomes: EventOutcome[]): LatencySummary {
	const latencies = outcomes.map((each) => each.firstLatencyMs).filter(Number.isFinite);
	return {
		p50: Math.round(percentile(latencies, 0.5)),
		p99: Math.round(percentile(latencies, 0.99)),
		count: latencies.length,
	};
}

async function waitUntilSettled(cluster: QueueCluster, workflowId: string): Promise<void> {
	// Every attempt has its answer by now, so what is left is executions finishing: done once none is open and the
	// count held still between two looks 3 s apart.
	let previous = -1;
	for (;;) {
		const all = await cluster.executions(workflowId);
		const open = all.filter((each) => ['new', 'running', 'waiting'].includes(each.status)).length;
		if (open === 0 && all.length === previous) return;
		previous = all.length;
		await sleep(3_000);
	}
}

/** How long the rate takes to climb from 0 to the soak's rate, linearly: a cluster just started is still warming up. */
const RAMP_MS = 30_000;

/**
 * When each event is due (ms from the start): the rate climbs linearly over RAMP_MS, then holds. Without the climb,
 * 8 events/s from the first second tipped one webhook processor of a fresh 2.40.7 cluster into a backlog it never left
 * (2 cores): its attempts waited past the sender's 15 s, the retries added to the queue, and n8n's database ping,
 * starved, answered `503 Database is not ready!`.
 */
function sendSchedule({ events, ratePerSecond }: SoakSettings): number[] {
	const perMs = ratePerSecond / 1000;
	const rampEvents = (perMs * RAMP_MS) / 2;
	return Array.from({ length: events }, (_, index) =>
		index < rampEvents
			? Math.sqrt((2 * RAMP_MS * index) / perMs)
			: RAMP_MS + (index - rampEvents) / perMs,
	);
}

/**
 * Sends the soak to a started cluster whose `receiver` (see soakReceiver) verifies with `secret`, waits until every
 * attempt was answered and the queue drained, and counts how often each event ran (by the receiver's sink).
 * Replays are drawn from the events whose replay falls while the soak still sends (`replayShare` of all events on
 * average), so the load stays steady and the run does not outlast its sending.
 */
export async function runSoak(
	cluster: QueueCluster,
	receiver: Receiver,
	secret: string,
	sink: EventSink,
	settings: SoakSettings,
	version: string,
	log: (line: string) => void = console.log,
): Promise<SoakFigures> {
	const processors = cluster.webhookBaseUrls;
	const dueAt = sendSchedule(settings);
	const lastDue = dueAt[dueAt.length - 1] ?? 0;
	const replayable = dueAt.filter((due) => due + settings.replayAfterMs <= lastDue).length;
	const replayChance =
		replayable > 0 ? Math.min(1, (settings.replayShare * settings.events) / replayable) : 0;
	// Each processor refuses deliveries until its start + the tolerance (the replay delay + 30 s): the soak's load
	// starts after that, as it would at a cluster that has been up for a while.
	const refusal = await waitPastStartRefusal(
		processors.map((base) => `${base}${receiver.path}`),
		secret,
	);
	log(
		`soak: waited ${Math.round(refusal.waitedMs / 1000)} s for the refusal after the processors' start (tolerance ${soakToleranceSeconds(settings.replayAfterMs)} s)`,
	);
	const started = performance.now();
	const pending: Promise<EventOutcome>[] = [];
	for (let index = 0; index < settings.events; index++) {
		const due = started + dueAt[index];
		const wait = due - performance.now();
		if (wait > 0) await sleep(wait);
		if (index > 0 && index % 1000 === 0) log(`soak: ${index} events sent`);
		const delivery = { id: newMessageId(), body: sipEvent(`soak-${randomUUID()}`) };
		const url = `${processors[routedProcessor(delivery.id, processors.length)]}${receiver.path}`;
		const replayAt =
			index < replayable && Math.random() < replayChance ? due + settings.replayAfterMs : undefined;
		pending.push(
			deliverEvent(url, secret, delivery, {
				retryAfterAnswer: Math.random() < settings.retryShare,
				replayAt,
			}),
		);
	}
	const sendingSeconds = (performance.now() - started) / 1000;
	log(
		`soak: ${settings.events} events sent in ${Math.round(sendingSeconds)} s; waiting for answers`,
	);
	const outcomes = await Promise.all(pending);
	log(
		`soak: ${outcomes.filter((each) => each.answered).length} answered 2xx; waiting for the queue to drain`,
	);
	await waitUntilSettled(cluster, receiver.workflow.id);
	const executions = await cluster.executions(receiver.workflow.id);
	const runs = sink.runsPerId();

	const ids = new Set(outcomes.map((each) => each.id));
	const retries = outcomes.filter((each) => each.retryAfterAnswer !== undefined);
	const replays = outcomes.filter((each) => each.replay !== undefined);
	const slice = latencySliceSize(outcomes.length);
	const firstThousand = latencySummary(outcomes.slice(0, slice));
	const lastThousand = latencySummary(outcomes.slice(-slice));
	const executionStatuses: Record<string, number> = {};
	for (const each of executions)
		executionStatuses[each.status] = (executionStatuses[each.status] ?? 0) + 1;
	return {
		version,
		settings,
		sendingSeconds: Math.round(sendingSeconds),
		answered: outcomes.filter((each) => each.answered).length,
		attemptsBeyondFirst: outcomes.reduce((sum, each) => sum + each.attempts.length - 1, 0),
		exactlyOnce: outcomes.filter((each) => runs.get(each.id) === 1).length,
		notRun: outcomes.filter((each) => !runs.has(each.id)).length,
		ranTwice: outcomes.filter((each) => (runs.get(each.id) ?? 0) > 1).length,
		foreign: [...runs.keys()].filter((id) => !ids.has(id)).length,
		executions: executions.length,
		executionStatuses,
		retriesAfterAnswer: retries.length,
		retriesAnswered2xx: retries.filter((each) => is2xx(each.retryAfterAnswer ?? 0)).length,
		replays: replays.length,
		replaysAnswered2xx: replays.filter((each) => is2xx(each.replay ?? 0)).length,
		firstThousand,
		lastThousand,
		p99Ratio: Number((lastThousand.p99 / firstThousand.p99).toFixed(2)),
	};
}
