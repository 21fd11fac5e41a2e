import { getTouched, setBounded } from '../../shared/boundedCache';

/**
 * Remembers accepted `webhook-id`s so a redelivery (same id, fresh timestamp and signature) does not
 * start the workflow twice. The interface is async so a shared store (e.g. Redis in queue mode) can
 * replace the in-memory one.
 */
export interface ReplayStore {
	/** True when `id` was accepted before and has not expired. */
	seen(id: string): Promise<boolean>;
	/** Records an accepted id; false when it was already recorded (a concurrent duplicate won). */
	remember(id: string, expiresAtMs: number): Promise<boolean>;
	/** Drops an id so a retry is processed again, for a delivery that failed after it was recorded. */
	forget(id: string): Promise<void>;
	/**
	 * Drops an id from this process's record only, leaving a shared record as n8n saved it ("After the Event Is
	 * Saved": n8n saves the shared record only once the execution exists). Stores without it use `forget`.
	 */
	release?(id: string): Promise<void>;
	/** Marks a recorded id as answered 2xx, for stores that repair the shared record only for such ids. */
	confirm?(id: string, expiresAtMs: number): Promise<void>;
}

/** Covers the sender's retry schedule (about 28 h in total) with a wide margin. */
export const REPLAY_WINDOW_MS = 72 * 60 * 60 * 1000;

const DEFAULT_REPLAY_CAPACITY = 10_000;

/** Bounded by count (oldest evicted first) and by time (expired ids are dropped). */
export class InMemoryReplayStore implements ReplayStore {
	// A Map keeps insertion order, which makes it a ring: the first entry is the oldest.
	private readonly expiries = new Map<string, number>();

	constructor(
		private readonly capacity = DEFAULT_REPLAY_CAPACITY,
		private readonly now: () => number = () => Date.now(),
	) {}

	get size(): number {
		return this.expiries.size;
	}

	async seen(id: string): Promise<boolean> {
		return this.isLive(id);
	}

	async remember(id: string, expiresAtMs: number): Promise<boolean> {
		if (this.isLive(id)) return false;
		this.expiries.delete(id);
		this.expiries.set(id, expiresAtMs);
		this.evict();
		return true;
	}

	async forget(id: string): Promise<void> {
		this.expiries.delete(id);
	}

	private isLive(id: string): boolean {
		const expiresAt = this.expiries.get(id);
		return expiresAt !== undefined && expiresAt > this.now();
	}

	private evict(): void {
		const now = this.now();
		for (const [id, expiresAt] of this.expiries) {
			if (this.expiries.size <= this.capacity && expiresAt > now) break;
			this.expiries.delete(id);
		}
	}
}

const stores = new Map<string, ReplayStore>();

/**
 * Trigger nodes (and modes) with a process-local store: each holds up to DEFAULT_REPLAY_CAPACITY ids of at most
 * 256 characters. The least recently used beyond this are dropped (production deliveries still find their ids in
 * n8n's static data, see sharedReplayStore.ts); plugged-in stores are kept.
 */
export const MAX_REPLAY_SCOPES = 200;

/** One store per trigger node (and mode), living as long as the process. */
export function replayStoreFor(scope: string): ReplayStore {
	let store = getTouched(stores, scope);
	if (!store) {
		store = new InMemoryReplayStore();
		setBounded(stores, scope, store, MAX_REPLAY_SCOPES, hasReplayStoreOverride);
	}
	return store;
}

/** Lets a deployment plug in a shared store (queue mode) for a scope. */
export function setReplayStore(scope: string, store: ReplayStore): void {
	overriddenScopes.add(scope);
	setBounded(stores, scope, store, MAX_REPLAY_SCOPES, hasReplayStoreOverride);
}

/** Stores held by this process, for tests. */
export function replayStoreCount(): number {
	return stores.size;
}

// --- Queue mode (sharedReplayStore.ts): a plugged-in store replaces n8n's static data as well. ---
const overriddenScopes = new Set<string>();

/** True when `setReplayStore` chose the store for this scope. */
export function hasReplayStoreOverride(scope: string): boolean {
	return overriddenScopes.has(scope);
}

/** A replay store made on first use. */
export function lazyReplayStore(create: () => ReplayStore): ReplayStore {
	let store: ReplayStore | undefined;
	const get = () => (store ??= create());
	return {
		seen: async (id) => await get().seen(id),
		remember: async (id, expiresAtMs) => await get().remember(id, expiresAtMs),
		forget: async (id) => await get().forget(id),
		release: async (id) => {
			const made = get();
			await (made.release ?? made.forget).call(made, id);
		},
		confirm: async (id, expiresAtMs) => await get().confirm?.(id, expiresAtMs),
	};
}
