/**
 * Fetches `limit` rows starting at `offset`; rows must come in a stable order (callers always sort). `signal` is
 * aborted when the page is no longer needed, so the fetcher stops retrying it.
 */
type FetchPage<T> = (offset: number, limit: number, signal: AbortSignal) => Promise<T[]>;

interface OffsetPagingOptions {
	/** Rows asked for per request. */
	pageSize: number;
	/** Requests in flight at once. */
	concurrency: number;
	/** Stop after this many rows (Limit mode); undefined = Return All. */
	maxRows?: number;
}

interface PageRequest<T> {
	offset: number;
	size: number;
	rows: Promise<T[]>;
	abort: AbortController;
}

/**
 * Offset pagination with a bounded number of requests in flight, pages consumed in offset order. A short page is
 * the end or a silent server cap (the Organization API's 500): the pages past it are discarded and paging goes on
 * right after the rows received, at the size the server gave; only an empty page ends it. No row skipped or repeated.
 */
export async function fetchAllByOffset<T>(
	fetchPage: FetchPage<T>,
	options: OffsetPagingOptions,
): Promise<T[]> {
	assertPositiveInteger(options.pageSize, 'pageSize');
	assertPositiveInteger(options.concurrency, 'concurrency');
	const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
	const pages: T[][] = [];
	let received = 0;
	let pageSize = options.pageSize;
	let nextOffset = 0;
	let inFlight: Array<PageRequest<T>> = [];

	const launch = () => {
		while (inFlight.length < options.concurrency && nextOffset < maxRows) {
			const size = Math.min(pageSize, maxRows - nextOffset);
			const abort = new AbortController();
			inFlight.push({
				offset: nextOffset,
				size,
				rows: fetchPage(nextOffset, size, abort.signal),
				abort,
			});
			nextOffset += size;
		}
	};
	const discard = (requests: Array<PageRequest<T>>) => {
		// Their results are not needed: stop their retries; a late failure must not surface as an unhandled rejection.
		for (const request of requests) {
			request.abort.abort();
			request.rows.catch(() => undefined);
		}
	};

	let finished = false;
	try {
		launch();
		while (inFlight.length > 0) {
			const head = inFlight.shift() as PageRequest<T>;
			const rows = await head.rows;
			if (rows.length > head.size) {
				throw new Error(`The server returned ${rows.length} rows for a page of ${head.size}`);
			}
			if (rows.length > 0) {
				pages.push(rows);
				received += rows.length;
			}
			if (rows.length === head.size) {
				launch();
				continue;
			}
			discard(inFlight);
			inFlight = [];
			if (rows.length === 0 || received >= maxRows) break;
			// Short but not empty: maybe a cap. Continue right after what arrived, at the size the server allows.
			pageSize = rows.length;
			nextOffset = head.offset + rows.length;
			launch();
		}
		finished = true;
	} finally {
		if (!finished) discard(inFlight);
	}
	return pages.flat();
}

function assertPositiveInteger(value: number, name: string): void {
	if (!Number.isInteger(value) || value < 1) {
		throw new RangeError(`${name} must be a whole number of at least 1, got ${value}`);
	}
}
