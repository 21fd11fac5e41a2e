// Process-wide maps are bounded: a Map keeps insertion order, so re-inserting on use and dropping the first evicts
// the least recently used.

/** Sets `value` as the most recently used entry and drops the least recently used ones beyond `max`. */
export function setBounded<K, V>(
	map: Map<K, V>,
	key: K,
	value: V,
	max: number,
	keep?: (key: K) => boolean,
): void {
	map.delete(key);
	map.set(key, value);
	for (const candidate of map.keys()) {
		if (map.size <= max) break;
		if (candidate !== key && !keep?.(candidate)) map.delete(candidate);
	}
}

/** The entry for `key`, marked as most recently used. */
export function getTouched<K, V>(map: Map<K, V>, key: K): V | undefined {
	const value = map.get(key);
	if (value === undefined) return undefined;
	map.delete(key);
	map.set(key, value);
	return value;
}

/** A bounded map whose entries also expire, each at its own time; expired entries are dropped before used ones. */
export class BoundedCache<TValue> {
	private readonly entries = new Map<string, { value: TValue; expiresAt: number }>();

	constructor(readonly maxEntries: number) {}

	get size(): number {
		return this.entries.size;
	}

	/** The value, unless absent or expired (an expired entry is removed). */
	get(key: string, now = Date.now()): TValue | undefined {
		const entry = getTouched(this.entries, key);
		if (entry === undefined || entry.expiresAt > now) return entry?.value;
		this.entries.delete(key);
		return undefined;
	}

	set(key: string, value: TValue, expiresAt: number, now = Date.now()): void {
		this.entries.delete(key);
		this.entries.set(key, { value, expiresAt });
		if (this.entries.size <= this.maxEntries) return;
		for (const [other, entry] of this.entries)
			if (entry.expiresAt <= now) this.entries.delete(other);
		for (const other of this.entries.keys()) {
			if (this.entries.size <= this.maxEntries) break;
			this.entries.delete(other);
		}
	}

	delete(key: string): void {
		this.entries.delete(key);
	}

	/** Deletes the entry only while it still holds `value`: a late failure must not drop a newer entry. */
	deleteIf(key: string, value: TValue): void {
		if (this.entries.get(key)?.value === value) this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}
}
