/** Small, dependency-free statistics for benchmark figures. */

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	if (p < 0 || p > 100) throw new RangeError(`percentile must be within 0..100, got ${p}`);
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
	return sorted[rank - 1];
}

export function median(values: readonly number[]): number {
	return percentile(values, 50);
}

/** a / b rounded to two decimals; NaN when b is 0 or either is not a number. */
export function ratio(a: number, b: number): number {
	if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return Number.NaN;
	return Math.round((a / b) * 100) / 100;
}

export function round(value: number, decimals = 1): number {
	if (!Number.isFinite(value)) return value;
	const factor = 10 ** decimals;
	return Math.round(value * factor) / factor;
}
