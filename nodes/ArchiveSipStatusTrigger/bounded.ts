/**
 * Process-wide maps of the trigger (rate limiters, replay stores, signing keys) hold at most a fixed number of
 * entries: a Map keeps insertion order, so re-inserting on use and dropping the first entry evicts the least
 * recently used one.
 */
export const MAX_SCOPES = 1000;

/** Sets `value` as the most recently used entry and drops the least recently used ones beyond `max`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number, keep?: (key: K) => boolean): void {
	map.delete(key);
	map.set(key, value);
	if (map.size <= max) return;
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
