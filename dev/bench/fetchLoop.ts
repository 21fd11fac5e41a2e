/**
 * The "bare fetch pager" contender, the client's floor: a bare Node process paging with `fetch` + `JSON.parse`
 * and nothing else, `concurrency` pages in flight (consumed in order, as the node's pager does), keeping every
 * row. Run as its own process so that its memory and CPU are its own, with the token in BENCH_TOKEN:
 * - `node fetchLoop.js <url> <pageSize> <maxPages> <concurrency> <api>`: offset paging until the first empty page
 *   (Return All); <api> is `ai` (face_tasks over the AI API) or `org` (organizations over the Organization API).
 * - `node fetchLoop.js replay <url> <concurrency> <requests.json>`: the requests a node was seen sending (a JSON
 *   array of GraphQL bodies), each once, in their order (the scheduled export's fetch floor).
 * Prints one JSON line of figures.
 */
import * as fs from 'node:fs';

import {
	FACE_TASKS_OPERATION,
	FACE_TASKS_PAGE_QUERY,
	faceTaskPageVariables,
	ORGANIZATIONS_OPERATION,
	ORGANIZATIONS_PAGE_QUERY,
} from './lib/workflows';

interface PageAnswer {
	data?: Record<string, unknown>;
	errors?: Array<{ message?: string }>;
}

/** The very requests our nodes send (query text, operation name, variables in their key order). */
const APIS = {
	ai: {
		query: FACE_TASKS_PAGE_QUERY,
		operationName: FACE_TASKS_OPERATION,
		variables: faceTaskPageVariables,
	},
	org: {
		query: ORGANIZATIONS_PAGE_QUERY,
		operationName: ORGANIZATIONS_OPERATION,
		variables: (limit: number, offset: number) => ({ offset, limit }),
	},
} as const;

interface Page {
	rows: unknown[];
	bytes: number;
}

interface GraphqlBody {
	query: string;
	variables: unknown;
	operationName?: string;
}

/** Where the requests come from: generated pages (offset paging) or a list recorded elsewhere. */
interface RequestSource {
	/** The next request to send, or undefined when there is none. */
	next(): GraphqlBody | undefined;
	/** Whether paging stops at this page (an empty page ends offset paging; a recorded list is sent whole). */
	ends(page: Page): boolean;
}

async function fetchPage(url: string, token: string, body: GraphqlBody): Promise<Page> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${JSON.stringify(body.variables)}: HTTP ${response.status}`);
	const text = await response.text();
	const answer = JSON.parse(text) as PageAnswer;
	if (!answer.data || answer.errors?.length)
		throw new Error(
			`${JSON.stringify(body.variables)}: ${answer.errors?.[0]?.message ?? 'no data in the answer'}`,
		);
	// A page's one root field holds its rows; anything else a node asked (a schema, a count) holds none.
	const first = Object.values(answer.data)[0];
	return {
		rows: Array.isArray(first) ? first : [],
		bytes: Number(response.headers.get('content-length') ?? 0),
	};
}

/** Offset paging of one API, `pageSize` rows a page, at most `maxPages` requests, until the first empty page. */
function pagingSource(
	api: (typeof APIS)[keyof typeof APIS],
	pageSize: number,
	maxPages: number,
): RequestSource {
	let sent = 0;
	return {
		next: () => {
			if (sent >= maxPages) return undefined;
			const offset = sent++ * pageSize;
			return {
				query: api.query,
				variables: api.variables(pageSize, offset),
				operationName: api.operationName,
			};
		},
		ends: (page) => page.rows.length === 0,
	};
}

/** The requests in `file` (a JSON array of GraphQL bodies), in their order, each once. */
function recordedSource(file: string): RequestSource {
	const bodies = JSON.parse(fs.readFileSync(file, 'utf8')) as GraphqlBody[];
	if (!Array.isArray(bodies) || bodies.length === 0) throw new Error(`${file} holds no requests`);
	let sent = 0;
	return { next: () => bodies[sent++], ends: () => false };
}

function sourceFrom(args: string[]): { url: string; concurrency: number; source: RequestSource } {
	if (args[0] === 'replay') {
		const [, url, concurrencyText, file] = args;
		const concurrency = Number(concurrencyText);
		if (!url || !(concurrency > 0) || !file)
			throw new Error(
				'usage: fetchLoop replay <url> <concurrency> <requests.json> (BENCH_TOKEN set)',
			);
		return { url, concurrency, source: recordedSource(file) };
	}
	const [url, pageSizeText, maxPagesText, concurrencyText, apiName] = args;
	const pageSize = Number(pageSizeText);
	const maxPages = Number(maxPagesText);
	const concurrency = Number(concurrencyText ?? 1);
	const api = APIS[(apiName ?? 'ai') as keyof typeof APIS];
	if (!url || !(pageSize > 0) || !(maxPages > 0) || !(concurrency > 0) || !api)
		throw new Error(
			'usage: fetchLoop <url> <pageSize> <maxPages> <concurrency> <ai|org> (BENCH_TOKEN set)',
		);
	return { url, concurrency, source: pagingSource(api, pageSize, maxPages) };
}

async function main(): Promise<void> {
	const token = process.env.BENCH_TOKEN ?? '';
	if (!token) throw new Error('BENCH_TOKEN is not set');
	const { url, concurrency, source } = sourceFrom(process.argv.slice(2));
	const startRssBytes = process.memoryUsage().rss;
	const startCpu = process.cpuUsage();
	const started = process.hrtime.bigint();
	const rows: unknown[] = [];
	let requests = 0;
	let bytes = 0;
	const inFlight: Array<Promise<Page>> = [];
	const launch = () => {
		while (inFlight.length < concurrency) {
			const body = source.next();
			if (!body) return;
			inFlight.push(fetchPage(url, token, body));
			requests++;
		}
	};
	launch();
	while (inFlight.length > 0) {
		const page = await (inFlight.shift() as Promise<Page>);
		bytes += page.bytes;
		if (source.ends(page)) break;
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
