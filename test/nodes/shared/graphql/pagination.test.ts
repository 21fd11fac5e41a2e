import { fetchAllByOffset } from '../../../../nodes/shared/graphql/pagination';

// The pager's own logic, without HTTP: a table of rows served by offset, optionally capped per page like the
// Organization API (500 whatever `limit` says), with the requests in flight counted. A request counts as in flight
// until it is answered or the pager aborts it (it no longer waits for it: the client stops retrying it).

function table(total: number, { cap = Infinity, delayMs = 0 } = {}) {
	const rows = Array.from({ length: total }, (_, index) => index);
	const stats = { requests: 0, inFlight: 0, maxInFlight: 0, aborted: 0 };
	const fetchPage = async (offset: number, limit: number, signal: AbortSignal) => {
		stats.requests++;
		stats.inFlight++;
		stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
		let counted = true;
		const release = () => {
			if (counted) stats.inFlight--;
			counted = false;
		};
		signal.addEventListener('abort', () => {
			stats.aborted++;
			release();
		});
		await new Promise((resolve) => setTimeout(resolve, delayMs));
		release();
		return rows.slice(offset, offset + Math.min(limit, cap));
	};
	return { rows, stats, fetchPage };
}

describe('fetchAllByOffset', () => {
	it.each([
		[0, 10, 3],
		[1, 10, 3],
		[10, 10, 3],
		[95, 10, 4],
		[1000, 7, 16],
	])(
		'returns all %i rows in order with page size %i and %i requests in flight',
		async (total, pageSize, concurrency) => {
			const { rows, stats, fetchPage } = table(total);

			expect(await fetchAllByOffset(fetchPage, { pageSize, concurrency })).toEqual(rows);
			expect(stats.maxInFlight).toBeLessThanOrEqual(concurrency);
		},
	);

	it('stops at the limit, asking for no more than it needs', async () => {
		const { rows, stats, fetchPage } = table(1000);

		expect(
			await fetchAllByOffset(fetchPage, { pageSize: 10, concurrency: 2, maxRows: 25 }),
		).toEqual(rows.slice(0, 25));
		expect(stats.requests).toBe(3);
	});

	it('continues after a silently capped page without skipping or repeating a row', async () => {
		const { rows, fetchPage } = table(1234, { cap: 500 });

		expect(await fetchAllByOffset(fetchPage, { pageSize: 1000, concurrency: 4 })).toEqual(rows);
	});

	it('keeps requests in flight up to the concurrency', async () => {
		const { stats, fetchPage } = table(200, { delayMs: 5 });

		await fetchAllByOffset(fetchPage, { pageSize: 10, concurrency: 4 });
		expect(stats.maxInFlight).toBe(4);
	});

	it('fails when the server returns more rows than asked for', async () => {
		const fetchPage = async (_offset: number, limit: number) =>
			Array.from({ length: limit + 1 }, () => 0);

		await expect(fetchAllByOffset(fetchPage, { pageSize: 5, concurrency: 1 })).rejects.toThrow(
			'The server returned 6 rows for a page of 5',
		);
	});

	it('passes a page failure on and aborts the pages still in flight', async () => {
		const signals: AbortSignal[] = [];
		const fetchPage = async (offset: number, limit: number, signal: AbortSignal) => {
			signals.push(signal);
			if (offset === 0) throw new Error('page 0 failed');
			await new Promise((resolve) => setTimeout(resolve, 5));
			return Array.from({ length: limit }, () => offset);
		};

		await expect(fetchAllByOffset(fetchPage, { pageSize: 5, concurrency: 3 })).rejects.toThrow(
			'page 0 failed',
		);
		expect(signals.slice(1).every((signal) => signal.aborted)).toBe(true);
	});

	it.each([
		['pageSize', { pageSize: 0, concurrency: 1 }],
		['concurrency', { pageSize: 1, concurrency: 1.5 }],
	])('refuses a %s that is not a whole number of at least 1', async (name, options) => {
		await expect(fetchAllByOffset(async () => [], options)).rejects.toThrow(
			`${name} must be a whole number of at least 1`,
		);
	});
});
