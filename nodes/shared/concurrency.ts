/**
 * Runs `task` for every entry with at most `limit` in flight; results keep the entries' order. After the first
 * failure no new task starts, and it rejects once the tasks in flight have settled (none is left running unobserved).
 */
export async function mapWithConcurrency<T, R>(
	entries: T[],
	limit: number,
	task: (entry: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(entries.length);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < entries.length) {
			const index = next++;
			try {
				results[index] = await task(entries[index], index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	const workers = Math.max(1, Math.min(limit, entries.length));
	await Promise.all(Array.from({ length: workers }, worker));
	if (failure) throw failure.error;
	return results;
}

/** `values` in consecutive slices of at most `size`. */
export function chunk<T>(values: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size)
		chunks.push(values.slice(start, start + size));
	return chunks;
}
