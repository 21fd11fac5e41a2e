/**
 * The "bare fetch pager" contender, the client's floor: a bare Node process paging with `fetch` + `JSON.parse`
 * and nothing else, `concurrency` pages in flight (consumed in offset order, as the node's pager does), keeping
 * every row (Return All), until the first empty page. Run as its own process so that its memory and CPU are its
 * own: `node fetchLoop.js <url> <pageSize> <maxPages> <concurrency> <api>` with the token in BENCH_TOKEN;
 * <api> is `ai` (face_tasks over the AI API) or `org` (organizations over the Organization API).
 * Prints one JSON line of figures.
 */
import {
	FACE_TASKS_OPERATION,
	FACE_TASKS_PAGE_QUERY,
	faceTaskPageVariables,
	ORGANIZATIONS_OPERATION,
	ORGANIZATIONS_PAGE_QUERY,
} from './lib/workflows';

interface PageAnswer {
	data?: Record<string, unknown[] | undefined>;
	errors?: Array<{ message?: string }>;
}

/** The very requests our nodes send (query text, operation name, variables in their key order). */
const APIS = {
	ai: {
		query: FACE_TASKS_PAGE_QUERY,
		operationName: FACE_TASKS_OPERATION,
		variables: faceTaskPageVariables,
		field: 'face_tasks',
	},
	org: {
		query: ORGANIZATIONS_PAGE_QUERY,
		operationName: ORGANIZATIONS_OPERATION,
		variables: (limit: number, offset: number) => ({ offset, limit }),
		field: 'organizations',
	},
} as const;

interface Page {
	rows: unknown[];
	bytes: number;
}

async function fetchPage(
	url: string,
	token: string,
	api: (typeof APIS)[keyof typeof APIS],
	limit: number,
	offset: number,
): Promise<Page> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: JSON.stringify({
			query: api.query,
			variables: api.variables(limit, offset),
			operationName: api.operationName,
		}),
	});
	if (!response.ok) throw new Error(`page at offset ${offset}: HTTP ${response.status}`);
	const text = await response.text();
	const answer = JSON.parse(text) as PageAnswer;
	const rows = answer.data?.[api.field];
	if (!rows)
		throw new Error(`page at offset ${offset}: ${answer.errors?.[0]?.message ?? 'no data'}`);
	return { rows, bytes: Number(response.headers.get('content-length') ?? 0) };
}

async function main(): Promise<void> {
	const [url, pageSizeText, maxPagesText, concurrencyText, apiName] = process.argv.slice(2);
	const token = process.env.BENCH_TOKEN ?? '';
	const pageSize = Number(pageSizeText);
	const maxPages = Number(maxPagesText);
	const concurrency = Number(concurrencyText ?? 1);
	const api = APIS[(apiName ?? 'ai') as keyof typeof APIS];
	if (!url || !token || !(pageSize > 0) || !(maxPages > 0) || !(concurrency > 0) || !api)
		throw new Error(
			'usage: fetchLoop <url> <pageSize> <maxPages> <concurrency> <ai|org> (BENCH_TOKEN set)',
		);
	const startRssBytes = process.memoryUsage().rss;
	const startCpu = process.cpuUsage();
	const started = process.hrtime.bigint();
	const rows: unknown[] = [];
	let requests = 0;
	let bytes = 0;
	const inFlight: Array<Promise<Page>> = [];
	let nextOffset = 0;
	const launch = () => {
		// Bounded: never more than maxPages requests, whatever the server answers.
		while (inFlight.length < concurrency && requests < maxPages) {
			inFlight.push(fetchPage(url, token, api, pageSize, nextOffset));
			nextOffset += pageSize;
			requests++;
		}
	};
	launch();
	while (inFlight.length > 0) {
		const page = await (inFlight.shift() as Promise<Page>);
		bytes += page.bytes;
		if (page.rows.length === 0) break;
		for (const row of page.rows) rows.push(row);
		launch();
	}
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(startCpu);
	// Pages sent ahead past the end are still answered (not counted); wait for them so the process ends cleanly.
	await Promise.allSettled(inFlight);
	const peakRssBytes = process.resourceUsage().maxRSS * 1024;
	console.log(
		JSON.stringify({
			rows: rows.length,
			requests,
			bytes,
			wallMs,
			cpuSeconds: (cpu.user + cpu.system) / 1e6,
			startRssBytes,
			peakRssBytes,
		}),
	);
}

main().catch((error: unknown) => {
	console.error((error as Error).message);
	process.exit(1);
});
