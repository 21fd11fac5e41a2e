import { sleepWithAbort } from 'n8n-workflow';

import { setBounded } from '../shared/boundedCache';
import type { AcceptedIdRecord } from './replay/acceptedIds';

/**
 * Replay-record keys of accepted deliveries this process has not answered yet. A retry of one waits a while for that
 * answer (then is a replay, or runs), else gets 409: answering it 2xx as a replay would lose the event if the first
 * delivery then fails. Keyed like the record, so a retry to another trigger with the same secret waits too. Unless
 * the delivery ended in a 2xx, its id leaves the replay record.
 */
const inFlight = new Set<string>();

/** Beyond it the oldest entries go (a retry of those may then run twice, never zero times). */
const MAX_IN_FLIGHT_IDS = 10_000;

export function isInFlight(recordKeys: string[]): boolean {
	return recordKeys.some((key) => inFlight.has(key));
}

function markInFlight(recordKeys: string[]): void {
	for (const key of recordKeys) {
		inFlight.add(key);
		if (inFlight.size > MAX_IN_FLIGHT_IDS)
			inFlight.delete(inFlight.values().next().value as string);
	}
}

/**
 * How long a retry of an id in flight waits for n8n's answer before it gets 409: below a sender's 15 s timeout. The
 * held delivery is usually on its way (its sender timed out while no worker was free), so the retry learns the
 * outcome now instead of at the sender's next attempt, minutes later.
 */
export const IN_FLIGHT_WAIT_MS = 10_000;

/**
 * Deliveries whose retries wait at once (slots). Each holds an open request (and, on n8n 2.x, an expression isolate);
 * a retry beyond this gets 409 at once, as if it had waited.
 */
export const MAX_WAITING_RETRIES = 64;

/**
 * More retries of a delivery that has a slot share its wait and take no slot, so copies of one delivery cannot crowd
 * out the retry of another. Bounded as well, since each still holds an open request.
 */
export const MAX_SHARING_RETRIES = 256;

/** Wake-ups of waiting retries, by record key. */
const waitingRetries = new Map<string, Set<() => void>>();

/** The wait of each delivery that holds a slot, by its record keys. */
const sharedWaits = new Map<string, Promise<void>>();
let sharingCount = 0;

function settle(recordKeys: string[]): void {
	for (const key of recordKeys) {
		inFlight.delete(key);
		const waiting = waitingRetries.get(key);
		if (!waiting) continue;
		waitingRetries.delete(key);
		for (const wake of waiting) wake();
	}
}

/**
 * Resolves once none of `recordKeys` is in flight any more (n8n answered the held delivery), or after
 * `IN_FLIGHT_WAIT_MS`, or at once when every slot (or every share) is taken.
 */
export async function untilAnswered(recordKeys: string[]): Promise<void> {
	if (!isInFlight(recordKeys)) return;
	const delivery = recordKeys.join('\u0000');
	const shared = sharedWaits.get(delivery);
	if (shared) {
		if (sharingCount >= MAX_SHARING_RETRIES) return;
		sharingCount += 1;
		return await shared.finally(() => (sharingCount -= 1));
	}
	if (sharedWaits.size >= MAX_WAITING_RETRIES) return;
	const wait = waitForAnswer(recordKeys).finally(() => sharedWaits.delete(delivery));
	sharedWaits.set(delivery, wait);
	await wait;
}

async function waitForAnswer(recordKeys: string[]): Promise<void> {
	const answered = new AbortController();
	const wake = () => answered.abort();
	for (const key of recordKeys) {
		const waiting = waitingRetries.get(key) ?? new Set();
		waiting.add(wake);
		waitingRetries.set(key, waiting);
	}
	try {
		// Ends early, by rejecting, when settle() wakes it.
		await sleepWithAbort(IN_FLIGHT_WAIT_MS, answered.signal).catch(() => undefined);
	} finally {
		for (const key of recordKeys) {
			const waiting = waitingRetries.get(key);
			waiting?.delete(wake);
			if (waiting?.size === 0) waitingRetries.delete(key);
		}
	}
}

/** Lets the sender's retry run: the delivery did not end in a 2xx. */
function release(record: AcceptedIdRecord, recordKeys: string[]): void {
	settle(recordKeys);
	for (const key of recordKeys) record.delete(key);
}

/** The `http.ServerResponse` members used to learn how a delivery ended. */
export interface AnsweredResponse {
	statusCode: number;
	readonly headersSent: boolean;
	/** The connection is gone ('close' already emitted, so a listener added now never runs). */
	readonly closed?: boolean;
	readonly destroyed?: boolean;
	end: (...args: never[]) => unknown;
	once(event: 'close', listener: () => void): unknown;
}

const is2xx = (statusCode: number) => statusCode >= 200 && statusCode < 300;

/**
 * How long an id stays in flight after its sender left without an answer, waiting for n8n to answer. n8n does not
 * always answer (after a Redis outage in queue mode, 2.40.7 ran executions whose answer never reached the processor
 * holding the request): a longer hold keeps such an event refused (409) although it ran; a shorter one lets a retry
 * run a second execution when the backlog is long.
 */
export const SENDER_GONE_GRACE_MS = 2 * 60_000;

interface AwaitingExecution {
	recordKeys: string[];
	record: AcceptedIdRecord;
	/** After this, the id is released: n8n never answered. */
	releaseAtMs: number;
}

/** Deliveries whose sender left before n8n answered, oldest first, by trigger and id: their execution may still come. */
const awaitingExecution = new Map<string, AwaitingExecution>();

const awaitingKey = (scope: string, id: string) => `${scope}\u0000${id}`;

/**
 * Calls `listener` with the status n8n writes to a response whose sender already left (in queue mode the worker's
 * answer reaches the processor holding the request all the same). Node emits no documented event for a write to a
 * closed response, so `end` is wrapped, once.
 */
function onLateAnswer(res: AnsweredResponse, listener: (statusCode: number) => void): void {
	const end = res.end;
	res.end = function (this: unknown, ...args: never[]) {
		res.end = end;
		try {
			listener(res.statusCode);
		} catch {
			// The record's bookkeeping must never break n8n's answer.
		}
		return end.apply(this, args);
	};
}

/**
 * Holds an accepted delivery as "in flight" until n8n answers it; unless that answer is 2xx, its id leaves the replay
 * record, so the retry runs (at-least-once).
 *
 * A sender that gives up first (its 15 s timeout while n8n is slow) leaves n8n still saving or queueing the
 * execution. Releasing the id then would run every retry again while the first is on its way, so the id stays in
 * flight until n8n answers the gone sender: 2xx (saved; with "After the Event Is Saved", run on a worker) keeps it
 * recorded, anything else releases it, and so does SENDER_GONE_GRACE_MS without any answer.
 */
export function holdUntilAnswered(
	res: AnsweredResponse,
	{ scope, id, recordKeys }: { scope: string; id: string; recordKeys: string[] },
	record: AcceptedIdRecord,
): void {
	markInFlight(recordKeys);
	const onClose = () => {
		if (res.headersSent) {
			// n8n answered, whether or not every byte reached the sender.
			if (is2xx(res.statusCode)) settle(recordKeys);
			else release(record, recordKeys);
			return;
		}
		const key = awaitingKey(scope, id);
		setBounded(
			awaitingExecution,
			key,
			{ recordKeys, record, releaseAtMs: Date.now() + SENDER_GONE_GRACE_MS },
			MAX_IN_FLIGHT_IDS,
		);
		onLateAnswer(res, (statusCode) => {
			const awaiting = awaitingExecution.get(key);
			if (awaiting?.recordKeys === recordKeys) awaitingExecution.delete(key);
			if (is2xx(statusCode)) {
				settle(recordKeys);
				// Released meanwhile (grace over): the execution exists after all, so its id is a replay again.
				for (const recordKey of recordKeys) record.add(recordKey);
			} else if (awaiting?.recordKeys === recordKeys) {
				release(record, recordKeys);
			}
		});
	};
	// Under load n8n can reach webhook() after the sender gave up: 'close' has fired then, and waiting for it would
	// hold the id in flight (409 to every retry) forever, although its execution runs.
	if (res.closed === true || res.destroyed === true) onClose();
	else res.once('close', onClose);
}

/**
 * Releases the ids whose execution did not report within the grace period, so their retries run. Called before each
 * delivery (no timers in a node); entries are in the order they were held, so it stops at the first still in grace.
 */
export function releaseOverdue(): void {
	const nowMs = Date.now();
	for (const [key, awaiting] of awaitingExecution) {
		if (awaiting.releaseAtMs > nowMs) break;
		awaitingExecution.delete(key);
		release(awaiting.record, awaiting.recordKeys);
	}
}

/** The trigger's execute() ran for these ids: their execution is saved, so an id whose sender left stays accepted. */
export function eventsSaved(scope: string, ids: string[]): void {
	for (const id of ids) {
		const key = awaitingKey(scope, id);
		const awaiting = awaitingExecution.get(key);
		if (!awaiting) continue;
		awaitingExecution.delete(key);
		settle(awaiting.recordKeys);
	}
}
