import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { getTouched, setBounded } from '../../shared/boundedCache';
import { MAX_TRIGGER_SCOPES } from '../../shared/n8n/limits';
import { hasReplayStoreOverride, replayStoreFor, type ReplayStore } from './replayStore';

/**
 * Replay protection across processes (queue mode: several webhook processors). Accepted ids are recorded in the
 * workflow's static data, which n8n reads fresh for every production delivery and saves right after `webhook()`.
 * That is read-modify-write of one row, not atomic: the same id reaching two processes within milliseconds can run
 * twice, and a concurrent save can drop another process's id, which its process keeps pending and writes back (see
 * `PENDING_REPAIR_MS`). The process-local store stays in front, so a replay to the same process never depends on this.
 */

/** Where in the node's static data the ids live. */
export const SHARED_REPLAY_KEY = 'acceptedWebhookIds';

/**
 * n8n loads static data for every delivery, saves it after every accepted one, and copies it into
 * every execution it stores: the record is kept compact (12 bytes per id, about 60 KB at capacity).
 */
export const SHARED_REPLAY_CAPACITY = 5000;

/** How long a process re-asserts the ids it accepted, in case a concurrent save overwrote them. */
const PENDING_REPAIR_MS = 15 * 60 * 1000;

const HOUR_MS = 3_600_000;

/** 72 bits of SHA-256: a false match among 5,000 stored ids has a chance of about 1 in 10^18. */
const SHARED_KEY_LENGTH = 12;

/** Fixed-size keys: the stored record does not grow with whatever id length a sender uses. */
export function sharedReplayKey(id: string): string {
	return createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, SHARED_KEY_LENGTH);
}

/**
 * Expiry hour (hours since the epoch, rounded up: that only lengthens the protection) -> the keys
 * expiring in it, concatenated in the order they were accepted.
 */
type SharedRecord = Map<number, string>;

function appendKeys(record: SharedRecord, hour: number, keys: string): void {
	record.set(hour, (record.get(hour) ?? '') + keys);
}

/** Keys of the earlier layout (`{ key22: expiryMinute }`) are read too, so an upgrade keeps them. */
function readRecord(staticData: IDataObject): SharedRecord {
	const stored = staticData[SHARED_REPLAY_KEY];
	const record: SharedRecord = new Map();
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return record;
	for (const [name, value] of Object.entries(stored as IDataObject)) {
		if (typeof value === 'string' && /^\d+$/.test(name) && value.length % SHARED_KEY_LENGTH === 0) {
			appendKeys(record, Number(name), value);
		} else if (typeof value === 'number' && name.length >= SHARED_KEY_LENGTH) {
			appendKeys(record, Math.ceil(value / 60), name.slice(0, SHARED_KEY_LENGTH));
		}
	}
	return record;
}

/** Offset of `key` in `keys` at a key boundary, or -1. */
function keyOffset(keys: string, key: string): number {
	for (let at = keys.indexOf(key); at !== -1; at = keys.indexOf(key, at + 1)) {
		if (at % SHARED_KEY_LENGTH === 0) return at;
	}
	return -1;
}

function expiryHourOf(expiresAtMs: number): number {
	return Math.ceil(expiresAtMs / HOUR_MS);
}

/** Drops expired hours, then the oldest keys of the soonest-expiring hours beyond the capacity. */
function pruneRecord(record: SharedRecord, nowMs: number, capacity: number): IDataObject {
	const live = [...record].filter(([hour, keys]) => hour * HOUR_MS > nowMs && keys.length > 0);
	live.sort(([left], [right]) => left - right);
	let excess = live.reduce((sum, [, keys]) => sum + keys.length / SHARED_KEY_LENGTH, 0) - capacity;
	const pruned: IDataObject = {};
	for (const [hour, keys] of live) {
		const dropped = Math.max(0, Math.min(excess, keys.length / SHARED_KEY_LENGTH));
		excess -= dropped;
		if (dropped * SHARED_KEY_LENGTH < keys.length)
			pruned[String(hour)] = keys.slice(dropped * SHARED_KEY_LENGTH);
	}
	return pruned;
}

/**
 * One delivery's view of the ids recorded in the node's workflow static data. Built per request:
 * n8n hands every request its own freshly loaded copy.
 */
export class StaticDataReplayStore implements ReplayStore {
	constructor(
		private readonly staticData: IDataObject,
		private readonly now: () => number = () => Date.now(),
		private readonly capacity = SHARED_REPLAY_CAPACITY,
	) {}

	async seen(id: string): Promise<boolean> {
		return this.isLive(readRecord(this.staticData), sharedReplayKey(id));
	}

	async remember(id: string, expiresAtMs: number): Promise<boolean> {
		const record = readRecord(this.staticData);
		const key = sharedReplayKey(id);
		if (this.isLive(record, key)) return false;
		appendKeys(record, expiryHourOf(expiresAtMs), key);
		this.write(record);
		return true;
	}

	async forget(id: string): Promise<void> {
		const record = readRecord(this.staticData);
		const key = sharedReplayKey(id);
		let found = false;
		for (const [hour, keys] of record) {
			const at = keyOffset(keys, key);
			if (at === -1) continue;
			record.set(hour, keys.slice(0, at) + keys.slice(at + SHARED_KEY_LENGTH));
			found = true;
		}
		if (found) this.write(record);
	}

	/** Writes back ids this process accepted that a concurrent save dropped; true when any was missing. */
	restore(entries: Iterable<[id: string, expiresAtMs: number]>): boolean {
		const record = readRecord(this.staticData);
		let restored = false;
		for (const [id, expiresAtMs] of entries) {
			const key = sharedReplayKey(id);
			if (expiresAtMs <= this.now() || this.isRecorded(record, key)) continue;
			appendKeys(record, expiryHourOf(expiresAtMs), key);
			restored = true;
		}
		if (restored) this.write(record);
		return restored;
	}

	private isRecorded(record: SharedRecord, key: string): boolean {
		for (const keys of record.values()) if (keyOffset(keys, key) !== -1) return true;
		return false;
	}

	private isLive(record: SharedRecord, key: string): boolean {
		const nowMs = this.now();
		for (const [hour, keys] of record) {
			if (hour * HOUR_MS > nowMs && keyOffset(keys, key) !== -1) return true;
		}
		return false;
	}

	private write(record: SharedRecord): void {
		// Assigning the key (not mutating the nested object) is what marks static data as changed.
		this.staticData[SHARED_REPLAY_KEY] = pruneRecord(record, this.now(), this.capacity);
	}
}

/** The keys recorded in a node's static data, for inspection (tests, support). */
export function recordedReplayKeys(staticData: IDataObject): string[] {
	const keys: string[] = [];
	for (const joined of readRecord(staticData).values()) {
		for (let at = 0; at < joined.length; at += SHARED_KEY_LENGTH)
			keys.push(joined.slice(at, at + SHARED_KEY_LENGTH));
	}
	return keys;
}

/** Ids this process recorded in the shared store lately, per scope: re-asserted on later deliveries. */
const pendingByScope = new Map<
	string,
	Map<string, { expiresAtMs: number; repairUntilMs: number }>
>();

function pendingFor(
	scope: string,
	nowMs: number,
): Map<string, { expiresAtMs: number; repairUntilMs: number }> {
	let pending = getTouched(pendingByScope, scope);
	if (!pending) {
		pending = new Map();
		setBounded(pendingByScope, scope, pending, MAX_TRIGGER_SCOPES);
	}
	for (const [id, entry] of pending) if (entry.repairUntilMs <= nowMs) pending.delete(id);
	return pending;
}

/** Ids held for repair per scope: as many as the shared record holds; the oldest go first. */
function addPending(scope: string, id: string, expiresAtMs: number, nowMs: number): void {
	const entry = { expiresAtMs, repairUntilMs: nowMs + PENDING_REPAIR_MS };
	setBounded(pendingFor(scope, nowMs), id, entry, SHARED_REPLAY_CAPACITY);
}

/** Scopes and ids held for repair by this process, for tests. */
export function pendingRepairSizes(): { scopes: number; ids: number } {
	let ids = 0;
	for (const pending of pendingByScope.values()) ids += pending.size;
	return { scopes: pendingByScope.size, ids };
}

/**
 * The process-local store in front of the shared one: a replay is one that either has seen.
 * Recording goes to both; the local store decides races inside this process atomically.
 */
export class LayeredReplayStore implements ReplayStore {
	/**
	 * `repairOnlyConfirmed` ("After the Event Is Saved"): an id is re-asserted in the shared record only once its
	 * delivery was answered 2xx (`confirm`); re-asserting it earlier could record an event whose execution never came.
	 */
	constructor(
		private readonly local: ReplayStore,
		private readonly shared: StaticDataReplayStore,
		private readonly scope: string,
		private readonly now: () => number = () => Date.now(),
		private readonly repairOnlyConfirmed = false,
		private readonly sharedOnlyOnceRun = false,
	) {
		const pending = pendingFor(scope, now());
		shared.restore([...pending].map(([id, entry]) => [id, entry.expiresAtMs]));
	}

	async seen(id: string): Promise<boolean> {
		return (await this.local.seen(id)) || (await this.shared.seen(id));
	}

	async remember(id: string, expiresAtMs: number): Promise<boolean> {
		if (!(await this.local.remember(id, expiresAtMs))) return false;
		// "After the Event Is Saved": the execution records the id (recordRunEvents). Written here, n8n would save it
		// with whatever answer it gives, a failed execution's 500 to a sender that already left included, and the
		// sender's next retry would be taken for a replay of an event no execution holds.
		if (this.sharedOnlyOnceRun) return !(await this.shared.seen(id));
		// Kept locally either way: a replay reaching this process is then dropped without a lookup.
		if (!(await this.shared.remember(id, expiresAtMs))) return false;
		if (!this.repairOnlyConfirmed) addPending(this.scope, id, expiresAtMs, this.now());
		return true;
	}

	async confirm(id: string, expiresAtMs: number): Promise<void> {
		if (this.repairOnlyConfirmed) addPending(this.scope, id, expiresAtMs, this.now());
	}

	async forget(id: string): Promise<void> {
		await this.release(id);
		await this.shared.forget(id);
	}

	async release(id: string): Promise<void> {
		pendingByScope.get(this.scope)?.delete(id);
		await (this.local.release ?? this.local.forget).call(this.local, id);
	}
}

/** Workflow static data of the trigger node, or undefined where n8n offers none (e.g. older hosts). */
function nodeStaticData(context: IWebhookFunctions): IDataObject | undefined {
	try {
		const data = context.getWorkflowStaticData('node') as IDataObject | undefined;
		return typeof data === 'object' && data !== null ? data : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The replay store for one delivery. Production deliveries use the process-local store plus n8n's
 * shared static data; test-URL deliveries (n8n does not save static data for them), hosts without
 * static data and scopes with a store plugged in by `setReplayStore` use the process-local one only.
 */
export function replayStoreForDelivery(
	context: IWebhookFunctions,
	scope: string,
	{
		repairOnlyConfirmed = false,
		sharedOnlyOnceRun = false,
	}: { repairOnlyConfirmed?: boolean; sharedOnlyOnceRun?: boolean } = {},
): ReplayStore {
	const local = replayStoreFor(scope);
	if (hasReplayStoreOverride(scope) || context.getMode() !== 'webhook') return local;
	const staticData = nodeStaticData(context);
	if (!staticData) return local;
	const now = () => Date.now();
	return new LayeredReplayStore(
		local,
		new StaticDataReplayStore(staticData),
		scope,
		now,
		repairOnlyConfirmed,
		sharedOnlyOnceRun,
	);
}

/**
 * "After the Event Is Saved": the ids of events whose execution is running (the trigger's execute() answered the
 * sender) go into the shared record now, in this execution's copy of the static data, which n8n saves when the
 * execution ends. So every id in the record belongs to an event an execution holds.
 */
export async function recordRunEvents(
	context: Pick<IExecuteFunctions, 'getMode' | 'getWorkflowStaticData'>,
	ids: string[],
	expiresAtMs: number,
): Promise<void> {
	if (ids.length === 0 || context.getMode() !== 'webhook') return;
	let staticData: IDataObject | undefined;
	try {
		staticData = context.getWorkflowStaticData('node') as IDataObject | undefined;
	} catch {
		return;
	}
	if (typeof staticData !== 'object' || staticData === null) return;
	const shared = new StaticDataReplayStore(staticData);
	for (const id of ids) await shared.remember(id, expiresAtMs);
}
