import { sleepWithAbort } from 'n8n-workflow';

import { setBounded } from '../shared/boundedCache';
import type { AcceptedIdRecord } from './replay/acceptedIds';

/** Replay-record keys of accepted deliveries not answered yet: a 2xx to a retry would lose the event if they fail. */
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

/** How long a retry of an id in flight waits for n8n's answer before it gets 409: below a sender's 15 s timeout. */
export const IN_FLIGHT_WAIT_MS = 10_000;

/** Deliveries whose retries wait at once (slots), each an open request; a retry beyond gets 409 at once. */
export const MAX_WAITING_RETRIES = 64;

/** Retries sharing the wait of a delivery that has a slot, so copies of one cannot crowd out another's retry. */
export const MAX_SHARING_RETRIES = 256;

/** Wakes the retries waiting for a record key: an event named by the key. */
const answers = new EventTarget();

/** The wait of each delivery that holds a slot, by its record keys. */
const sharedWaits = new Map<string, Promise<void>>();
let sharingCount = 0;

function settle(recordKeys: string[]): void {
	for (const key of recordKeys) {
		inFlight.delete(key);
		answers.dispatchEvent(new Event(key));
	}
}

/** Resolves once n8n answered the held delivery, after IN_FLIGHT_WAIT_MS, or at once when no slot or share is left. */
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
	for (const key of recordKeys) answers.addEventListener(key, wake);
	try {
		// Ends early, by rejecting, when settle() wakes it.
		await sleepWithAbort(IN_FLIGHT_WAIT_MS, answered.signal).catch(() => undefined);
	} finally {
		for (const key of recordKeys) answers.removeEventListener(key, wake);
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
	readonly closed?: boolean;
	readonly destroyed?: boolean;
	end: (...args: never[]) => unknown;
	once(event: 'close', listener: () => void): unknown;
}

const is2xx = (statusCode: number) => statusCode >= 200 && statusCode < 300;

/** How long an id stays in flight after its sender left, for n8n's answer (which a Redis outage can lose). */
export const SENDER_GONE_GRACE_MS = 2 * 60_000;

/** Deliveries whose sender left before n8n answered, oldest first, by trigger and id: their execution may come. */
const awaitingExecution = new Map<
	string,
	{ recordKeys: string[]; record: AcceptedIdRecord; releaseAtMs: number }
>();

const awaitingKey = (scope: string, id: string) => `${scope}\u0000${id}`;

/** Calls `listener` with the status n8n still writes after the sender left: `end` is wrapped, once (no event). */
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
 * Holds an accepted delivery in flight until n8n answers it; unless that answer is 2xx, its id leaves the replay
 * record, so the retry runs (at-least-once). A sender that gave up first (n8n slow) leaves n8n still saving the
 * execution, so the id stays in flight until n8n answers the gone sender, or SENDER_GONE_GRACE_MS passes.
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
	// Under load n8n can reach webhook() after the sender gave up, when 'close' has already fired.
	if (res.closed === true || res.destroyed === true) onClose();
	else res.once('close', onClose);
}

/** Releases the ids whose execution did not report within the grace; called per delivery (a node has no timers). */
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
