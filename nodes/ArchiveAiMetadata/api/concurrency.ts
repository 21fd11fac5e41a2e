/** Runs `task` over `inputs` with at most `limit` at once; results keep the inputs' order. */
export async function mapWithConcurrency<T, R>(
	inputs: T[],
	limit: number,
	task: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array<R>(inputs.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < inputs.length) {
			const index = next++;
			results[index] = await task(inputs[index], index).catch(async (error: unknown) => {
				// Stop the other workers from starting new work; the first error is the one reported.
				failed = true;
				return await Promise.reject(error);
			});
		}
	};
	const workers = Array.from(
		{ length: Math.max(1, Math.min(limit, inputs.length)) },
		async () => await worker(),
	);
	await Promise.all(workers);
	return results;
}

export function chunk<T>(values: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size)
		chunks.push(values.slice(start, start + size));
	return chunks;
}
