/**
 * The "plain sequential fetch loop" contender: a bare Node process paging face_tasks with fetch, one page after
 * the other, keeping every row (Return All), until the first empty page. Run as its own process so that its
 * memory is its own: `node fetchLoop.js <graphqlUrl> <pageSize> <maxPages>` with the token in BENCH_TOKEN.
 * Prints one JSON line of figures.
 */
import { FACE_TASKS_PAGE_QUERY } from './lib/workflows';

interface PageAnswer {
	data?: { face_tasks?: unknown[] };
	errors?: Array<{ message?: string }>;
}

async function fetchPage(
	url: string,
	token: string,
	limit: number,
	offset: number,
): Promise<unknown[]> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ query: FACE_TASKS_PAGE_QUERY, variables: { limit, offset } }),
	});
	if (!response.ok) throw new Error(`page at offset ${offset}: HTTP ${response.status}`);
	const answer = (await response.json()) as PageAnswer;
	if (!answer.data?.face_tasks)
		throw new Error(`page at offset ${offset}: ${answer.errors?.[0]?.message ?? 'no data'}`);
	return answer.data.face_tasks;
}

async function main(): Promise<void> {
	const [url, pageSizeText, maxPagesText] = process.argv.slice(2);
	const token = process.env.BENCH_TOKEN ?? '';
	const pageSize = Number(pageSizeText);
	const maxPages = Number(maxPagesText);
	if (!url || !token || !(pageSize > 0) || !(maxPages > 0))
		throw new Error('usage: fetchLoop <graphqlUrl> <pageSize> <maxPages> (BENCH_TOKEN set)');
	const startRssBytes = process.memoryUsage().rss;
	const started = process.hrtime.bigint();
	const rows: unknown[] = [];
	let requests = 0;
	// Bounded: never more than maxPages requests, whatever the server answers.
	while (requests < maxPages) {
		const page = await fetchPage(url, token, pageSize, rows.length);
		requests++;
		if (page.length === 0) break;
		for (const row of page) rows.push(row);
	}
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const peakRssBytes = process.resourceUsage().maxRSS * 1024;
	console.log(JSON.stringify({ rows: rows.length, requests, wallMs, startRssBytes, peakRssBytes }));
}

main().catch((error: unknown) => {
	console.error((error as Error).message);
	process.exit(1);
});
