import {
	buildFailureEvent,
	buildSuccessEvent,
	send,
	type StatusEvent,
} from '../../emulators/webhook/sender';
import { percentile, round } from './stats';

/** Concurrent Standard Webhooks senders (the emulator's signing code) and what they saw. */

export interface SenderLoadOptions {
	url: string;
	secrets: readonly string[];
	events: number;
	concurrency: number;
	/** Per-request bound; the real sender gives up after 15 s. */
	timeoutMs?: number;
	/** Stop handing out events after this (a bound on the whole run). */
	deadlineMs: number;
}

export interface SenderLoadResult {
	sent: number;
	/** Answers outside 2xx, plus requests without an answer. */
	errors: number;
	statuses: Record<string, number>;
	p50Ms: number;
	p99Ms: number;
	/** With every sender waiting for its answer, mean = senders / events per second (Little's law). */
	meanMs: number;
	maxMs: number;
	wallMs: number;
	/** Correlation ids of the events answered with 2xx, to find them again among the executions. */
	deliveredCorrelationIds: string[];
	/** Every request's latency, for combining several loads. */
	latenciesMs: number[];
	firstError?: string;
}

/** Nine successes to one failure, like a healthy archive; each event has its own correlation id. */
export function benchEvent(index: number): StatusEvent {
	return index % 10 === 9
		? buildFailureEvent({ reason: `bench event ${index}` })
		: buildSuccessEvent();
}

/** `concurrency` workers take events from one counter until all are sent or the deadline passes. */
export async function runSenderLoad(options: SenderLoadOptions): Promise<SenderLoadResult> {
	const latencies: number[] = [];
	const statuses: Record<string, number> = {};
	const delivered: string[] = [];
	let next = 0;
	let errors = 0;
	let firstError: string | undefined;
	const started = Date.now();
	const worker = async () => {
		while (next < options.events && Date.now() - started < options.deadlineMs) {
			const event = benchEvent(next++);
			const result = await send(options.url, event, {
				secrets: options.secrets,
				timeoutMs: options.timeoutMs ?? 15_000,
			});
			latencies.push(result.latencyMs);
			const key = result.status === 0 ? 'no answer' : String(result.status);
			statuses[key] = (statuses[key] ?? 0) + 1;
			if (result.status >= 200 && result.status < 300) {
				delivered.push(event.data.correlation_id);
			} else {
				errors++;
				firstError ??=
					result.error ?? `HTTP ${result.status}: ${result.responseBody.slice(0, 200)}`;
			}
		}
	};
	await Promise.all(Array.from({ length: options.concurrency }, worker));
	return summarizeLoad(latencies, statuses, errors, Date.now() - started, delivered, firstError);
}

function summarizeLoad(
	latencies: number[],
	statuses: Record<string, number>,
	errors: number,
	wallMs: number,
	delivered: string[],
	firstError: string | undefined,
): SenderLoadResult {
	return {
		sent: latencies.length,
		errors,
		statuses,
		p50Ms: round(percentile(latencies, 50), 2),
		p99Ms: round(percentile(latencies, 99), 2),
		meanMs: round(
			latencies.reduce((sum, each) => sum + each, 0) / Math.max(1, latencies.length),
			2,
		),
		maxMs: round(
			latencies.reduce((max, each) => Math.max(max, each), 0),
			2,
		),
		wallMs,
		deliveredCorrelationIds: delivered,
		latenciesMs: latencies,
		...(firstError === undefined ? {} : { firstError }),
	};
}

/** Several loads of one target as one: latencies pooled, counts added, wall times summed. */
export function combineLoads(loads: SenderLoadResult[]): SenderLoadResult {
	const statuses: Record<string, number> = {};
	for (const load of loads) {
		for (const [status, count] of Object.entries(load.statuses))
			statuses[status] = (statuses[status] ?? 0) + count;
	}
	return summarizeLoad(
		loads.flatMap((load) => load.latenciesMs),
		statuses,
		loads.reduce((sum, load) => sum + load.errors, 0),
		loads.reduce((sum, load) => sum + load.wallMs, 0),
		loads.flatMap((load) => load.deliveredCorrelationIds),
		loads.find((load) => load.firstError !== undefined)?.firstError,
	);
}
