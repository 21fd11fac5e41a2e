import type { Sandbox } from '../../emulators';
import type { N8nInstance } from '../../n8n/n8n';
import type { CliRun } from '../../n8n/run-data';
import type { CredentialRef, WorkflowJson } from '../../n8n/workflows';
import { runBarePager } from '../lib/barePager';
import { countsSince, snapshot } from '../lib/counters';
import { executeMeasured, type MeasuredExecution } from '../lib/execute';
import { mebibytes } from '../lib/memory';
import { ratio, round } from '../lib/stats';
import {
	AI_NODE,
	baselineWorkflow,
	HTTP_NODE,
	httpOrgReturnAllWorkflow,
	httpReturnAllWorkflow,
	httpSplitReturnAllWorkflow,
	ORG_NODE,
	ORG_PAGE_SIZE,
	ourOrgReturnAllWorkflow,
	ourReturnAllWorkflow,
	PAGE_SIZE,
	SPLIT_NODE,
} from '../lib/workflows';

/**
 * Return All through a paging API, against the emulator in bench mode (pages served from stored bytes, latency a
 * timer): our node at its default and at other Max Concurrent Requests, the HTTP Request node's pager alone and
 * with Split Out, and a bare fetch pager (fetch + JSON.parse) at each of our concurrencies, in its own process.
 * One section for the AI API (face tasks) and one for the Organization API (organizations).
 */

export type PagingApi = 'ai' | 'org';
export type ContenderKind = 'ours' | 'http' | 'httpSplit' | 'bare';

export interface PagingCase {
	latencyMs: number;
	kind: ContenderKind;
	contender: string;
	/** Pages in flight (ours and the bare pager; the HTTP Request node pages one after the other). */
	concurrency: number;
	/** Rows the contender ended up with (checked against the dataset). */
	rows: number;
	/** n8n `executionTime` of the fetching node (for the bare pager: its own wall time). */
	nodeMs: number;
	/** Split Out's node time, when the contender has one. */
	splitMs?: number;
	/** CPU seconds (user + sys) of n8n's process group while the node(s) ran; the bare pager's own. */
	cpuSeconds: number;
	/** Largest group RSS sampled while the fetching node(s) ran, and its growth over the RSS at the start. */
	nodePeakRssMiB: number;
	nodeGrowthMiB: number;
	/** Largest summed RSS of the process group over the whole `n8n execute` (printing the run included). */
	processPeakRssMiB: number;
	processWallMs: number;
	graphqlRequests: number;
	error?: string;
}

export interface LatencyRatios {
	latencyMs: number;
	/** Our node at its default concurrency over the HTTP Request node (alone). */
	oursOverHttp: number;
	/** The fastest of our runs over the HTTP Request node, and its concurrency. */
	bestOverHttp: number;
	bestConcurrency: number;
	/** Our node over the bare pager at the same concurrency: default, and the fastest of ours. */
	oursOverBare: number;
	bestOverBare: number;
	/** RSS growth during our default run over the JSON bytes received. */
	growthOverBytes: number;
}

export interface PagingResult {
	api: PagingApi;
	rows: number;
	pageSize: number;
	defaultConcurrency: number;
	/** JSON bytes of all pages (content-length, the final empty page included), as the bare pager received them. */
	bytesReceived: number;
	/** Bench server: time to render a page the first time, and CPU per page served from stored bytes. */
	server: { renderMsPerPage: number; cpuMsPerPage: number; missesAfterWarmup: number };
	baseline: { processWallMs: number; peakGroupRssMiB: number };
	cases: PagingCase[];
	ratios: LatencyRatios[];
}

export interface PagingSetup {
	api: PagingApi;
	n8n: N8nInstance;
	/** An emulator started with `benchMode: true`. */
	sandbox: Sandbox;
	/** Credential of our node (AI or Organization) and a header credential with a token for the HTTP Request node. */
	ourCredential: CredentialRef;
	headerCredential: CredentialRef;
	/** A token for the bare pager. */
	token: string;
	packageBuilt: boolean;
	/** Our node's default Max Concurrent Requests and the other values to try. */
	defaultConcurrency: number;
	otherConcurrencies: number[];
	latenciesMs: number[];
	log: (line: string) => void;
}

const LABEL: Record<PagingApi, string> = { ai: 'Archive AI Metadata', org: 'Archive Organization' };

function concurrenciesOf(setup: PagingSetup): number[] {
	return [...new Set([setup.defaultConcurrency, ...setup.otherConcurrencies])];
}

function pageSizeOf(api: PagingApi): number {
	return api === 'ai' ? PAGE_SIZE : ORG_PAGE_SIZE;
}

/** Rows the API holds: what every contender must end up with. */
function expectedRows(setup: PagingSetup): number {
	return setup.api === 'ai'
		? setup.sandbox.data.ai.rows('face_tasks').length
		: setup.sandbox.data.org.organizations.length;
}

/** The workflows of this section by role; ours only when the package is built. */
export function pagingWorkflows(
	setup: Omit<PagingSetup, 'token'>,
	prefix: string,
): Record<string, WorkflowJson> {
	const workflows: Record<string, WorkflowJson> = { [`${prefix}baseline`]: baselineWorkflow() };
	if (setup.api === 'ai') {
		workflows[`${prefix}http`] = httpReturnAllWorkflow(
			setup.sandbox.ai.graphqlUrl,
			setup.headerCredential,
		);
		workflows[`${prefix}httpSplit`] = httpSplitReturnAllWorkflow(
			setup.sandbox.ai.graphqlUrl,
			setup.headerCredential,
		);
	} else {
		workflows[`${prefix}http`] = httpOrgReturnAllWorkflow(
			setup.sandbox.org.apiUrl,
			setup.headerCredential,
			false,
		);
		workflows[`${prefix}httpSplit`] = httpOrgReturnAllWorkflow(
			setup.sandbox.org.apiUrl,
			setup.headerCredential,
			true,
		);
	}
	if (setup.packageBuilt) {
		for (const concurrency of concurrenciesOf(setup as PagingSetup)) {
			// The default case leaves the option unset: it measures the node's own default.
			const set = concurrency === setup.defaultConcurrency ? undefined : concurrency;
			workflows[`${prefix}ours${concurrency}`] =
				setup.api === 'ai'
					? ourReturnAllWorkflow(setup.ourCredential, set)
					: ourOrgReturnAllWorkflow(setup.ourCredential, set);
		}
	}
	return workflows;
}

export async function runPaging(
	setup: PagingSetup,
	ids: Record<string, string>,
	prefix: string,
): Promise<PagingResult> {
	const rows = expectedRows(setup);
	const cache = setup.sandbox.responseCaches?.[setup.api];
	if (!cache) throw new Error('the paging benchmark needs an emulator in bench mode');
	const target = setup.api;
	setup.sandbox.faults.clear(target);

	// Warm-up: the bare pager asks for every page once (all contenders send the same query and variables), so
	// the bench server renders each page here and serves stored bytes to every measured request.
	setup.log(`${setup.api} return all: warming the bench server (every page rendered once)`);
	// At the largest concurrency: the empty pages sent ahead past the end get rendered too.
	const rendered = cache.stats();
	await bareCase(setup, Math.max(...concurrenciesOf(setup)) + 1, 0, rows);
	const afterWarmup = cache.stats();
	const renderMsPerPage =
		(afterWarmup.renderMs - rendered.renderMs) / Math.max(1, afterWarmup.misses - rendered.misses);
	// The server's CPU per page served from stored bytes: the whole bench process (emulator in it) during a bare
	// pager run at 0 ms, over its requests. An upper bound: the bench process does little else meanwhile.
	const cpuBefore = process.cpuUsage();
	const served = await bareCase(setup, setup.defaultConcurrency, 0, rows);
	const cpu = process.cpuUsage(cpuBefore);
	const cpuMsPerPage = (cpu.user + cpu.system) / 1000 / Math.max(1, served.graphqlRequests);
	const bytesReceived = served.bytes;

	setup.log(`${setup.api} return all: baseline (bare n8n execute)`);
	const baseline = await executeMeasured(setup.n8n, ids[`${prefix}baseline`]);
	const cases: PagingCase[] = [];
	const missesBefore = cache.stats().misses;
	for (const latencyMs of setup.latenciesMs) {
		// A remote API answers after a network round trip; a timer in the emulator, not CPU.
		if (latencyMs > 0) setup.sandbox.faults.set(target, { slowMs: latencyMs });
		else setup.sandbox.faults.clear(target);
		try {
			cases.push(...(await runLatency(setup, ids, prefix, latencyMs, rows)));
		} finally {
			setup.sandbox.faults.clear(target);
		}
	}
	for (const each of cases) {
		if (each.rows !== rows && !each.error) each.error = `got ${each.rows} rows, expected ${rows}`;
	}
	return {
		api: setup.api,
		rows,
		pageSize: pageSizeOf(setup.api),
		defaultConcurrency: setup.defaultConcurrency,
		bytesReceived,
		server: {
			renderMsPerPage: round(renderMsPerPage, 2),
			cpuMsPerPage: round(cpuMsPerPage, 2),
			missesAfterWarmup: cache.stats().misses - missesBefore,
		},
		baseline: {
			processWallMs: Math.round(baseline.processWallMs),
			peakGroupRssMiB: mebibytes(baseline.memory.peakGroupRssBytes),
		},
		cases,
		ratios: ratiosOf(setup, cases, bytesReceived),
	};
}

async function runLatency(
	setup: PagingSetup,
	ids: Record<string, string>,
	prefix: string,
	latencyMs: number,
	rows: number,
): Promise<PagingCase[]> {
	const cases: Array<Omit<PagingCase, 'latencyMs'>> = [];
	const label = `${setup.api} return all (+${latencyMs} ms)`;
	if (setup.packageBuilt) {
		for (const concurrency of concurrenciesOf(setup)) {
			setup.log(`${label}: ${LABEL[setup.api]}, ${concurrency} in flight`);
			cases.push(await n8nCase(setup, ids[`${prefix}ours${concurrency}`], 'ours', concurrency));
		}
	}
	setup.log(`${label}: HTTP Request node with pagination`);
	cases.push(await n8nCase(setup, ids[`${prefix}http`], 'http', 1));
	setup.log(`${label}: HTTP Request node + Split Out`);
	cases.push(await n8nCase(setup, ids[`${prefix}httpSplit`], 'httpSplit', 1));
	for (const concurrency of concurrenciesOf(setup)) {
		setup.log(`${label}: bare fetch pager, ${concurrency} in flight`);
		cases.push(await bareCase(setup, concurrency, latencyMs, rows));
	}
	return cases.map((each) => ({ ...each, latencyMs }));
}

function contenderName(api: PagingApi, kind: ContenderKind, concurrency: number): string {
	switch (kind) {
		case 'ours':
			return `${LABEL[api]} (Return All, ${concurrency} in flight)`;
		case 'http':
			return 'HTTP Request, offset pagination (1 item per page)';
		case 'httpSplit':
			return 'HTTP Request + Split Out (1 item per row)';
		case 'bare':
			return `Bare fetch pager (${concurrency} in flight, no n8n)`;
	}
}

function ratiosOf(setup: PagingSetup, cases: PagingCase[], bytes: number): LatencyRatios[] {
	return setup.latenciesMs.map((latencyMs) => {
		const at = cases.filter((each) => each.latencyMs === latencyMs && !each.error);
		const ours = at.filter((each) => each.kind === 'ours');
		const byDefault = ours.find((each) => each.concurrency === setup.defaultConcurrency);
		const best = ours.reduce<PagingCase | undefined>(
			(fastest, each) => (!fastest || each.nodeMs < fastest.nodeMs ? each : fastest),
			undefined,
		);
		const http = at.find((each) => each.kind === 'http');
		const bare = (concurrency: number | undefined) =>
			at.find((each) => each.kind === 'bare' && each.concurrency === concurrency);
		return {
			latencyMs,
			oursOverHttp: ratio(byDefault?.nodeMs ?? Number.NaN, http?.nodeMs ?? Number.NaN),
			bestOverHttp: ratio(best?.nodeMs ?? Number.NaN, http?.nodeMs ?? Number.NaN),
			bestConcurrency: best?.concurrency ?? Number.NaN,
			oursOverBare: ratio(
				byDefault?.nodeMs ?? Number.NaN,
				bare(byDefault?.concurrency)?.nodeMs ?? Number.NaN,
			),
			bestOverBare: ratio(
				best?.nodeMs ?? Number.NaN,
				bare(best?.concurrency)?.nodeMs ?? Number.NaN,
			),
			growthOverBytes: ratio(
				(byDefault?.nodeGrowthMiB ?? Number.NaN) * 1024 * 1024,
				bytes || Number.NaN,
			),
		};
	});
}

async function n8nCase(
	setup: PagingSetup,
	workflowId: string,
	kind: ContenderKind,
	concurrency: number,
): Promise<Omit<PagingCase, 'latencyMs'>> {
	const fetchingNode = kind === 'ours' ? (setup.api === 'ai' ? AI_NODE : ORG_NODE) : HTTP_NODE;
	const splitNode = kind === 'httpSplit' ? SPLIT_NODE : undefined;
	const before = snapshot(setup.sandbox);
	const measured = await executeMeasured(setup.n8n, workflowId, (run) => ({
		rows: rowsIn(run, setup.api, fetchingNode, splitNode),
	}));
	const requests = countsSince(setup.sandbox, before);
	const fetching = measured.nodes[fetchingNode];
	const split = splitNode ? measured.nodes[splitNode] : undefined;
	// With Split Out, the memory window spans both nodes: the rows exist as items only after it.
	const peakBytes = Math.max(
		fetching?.memory.peakBytes ?? Number.NaN,
		split?.memory.peakBytes ?? 0,
	);
	return {
		kind,
		contender: contenderName(setup.api, kind, concurrency),
		concurrency,
		rows: measured.checks.rows,
		nodeMs: fetching?.executionTimeMs ?? Number.NaN,
		...(split ? { splitMs: split.executionTimeMs } : {}),
		cpuSeconds: round((fetching?.cpuSeconds ?? Number.NaN) + (split?.cpuSeconds ?? 0), 2),
		nodePeakRssMiB: mebibytes(peakBytes),
		nodeGrowthMiB: mebibytes(peakBytes - (fetching?.memory.atStartBytes ?? Number.NaN)),
		processPeakRssMiB: mebibytes(measured.memory.peakGroupRssBytes),
		processWallMs: Math.round(measured.processWallMs),
		graphqlRequests: setup.api === 'ai' ? requests.aiGraphql : requests.orgGraphql,
		...failure(measured),
	};
}

function failure(measured: MeasuredExecution<unknown>): { error?: string } {
	if (measured.succeeded) return {};
	const nodeError = Object.entries(measured.nodes).find(([, timing]) => timing.error);
	return {
		error:
			measured.error ?? (nodeError ? `${nodeError[0]}: ${nodeError[1].error}` : 'execution failed'),
	};
}

/** Our node and Split Out give one item per row; the HTTP Request node one item per page holding the rows. */
function rowsIn(
	run: CliRun,
	api: PagingApi,
	fetchingNode: string,
	splitNode: string | undefined,
): number {
	const runData = run.data.resultData.runData;
	const items = (name: string) => runData[name]?.[0]?.data?.main?.[0] ?? [];
	if (splitNode) return items(splitNode).length;
	if (fetchingNode !== HTTP_NODE) return items(fetchingNode).length;
	const field = api === 'ai' ? 'face_tasks' : 'organizations';
	return items(fetchingNode).reduce((sum, item) => {
		const page = (item.json as { data?: Record<string, unknown> }).data?.[field];
		return sum + (Array.isArray(page) ? page.length : 0);
	}, 0);
}

/** The bare pager runs in a process of its own under n8n's Node 24 (lib/barePager.ts). */
async function bareCase(
	setup: PagingSetup,
	concurrency: number,
	latencyMs: number,
	rows: number,
): Promise<PagingCase & { bytes: number }> {
	const pageSize = pageSizeOf(setup.api);
	const maxPages = Math.ceil(rows / pageSize) + concurrency + 1;
	const url = setup.api === 'ai' ? setup.sandbox.ai.graphqlUrl : setup.sandbox.org.apiUrl;
	const started = process.hrtime.bigint();
	const run = await runBarePager(
		setup.n8n.install.nodeBin,
		[url, String(pageSize), String(maxPages), String(concurrency), setup.api],
		setup.token,
	);
	const processWallMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
	const base = {
		latencyMs,
		kind: 'bare' as const,
		contender: contenderName(setup.api, 'bare', concurrency),
		concurrency,
		processWallMs,
	};
	if ('error' in run) {
		const none = Number.NaN;
		return {
			...base,
			rows: 0,
			bytes: 0,
			nodeMs: none,
			cpuSeconds: none,
			nodePeakRssMiB: none,
			nodeGrowthMiB: none,
			processPeakRssMiB: none,
			graphqlRequests: 0,
			error: run.error,
		};
	}
	const { figures } = run;
	return {
		...base,
		rows: figures.rows,
		bytes: figures.bytes,
		nodeMs: Math.round(figures.wallMs),
		cpuSeconds: round(figures.cpuSeconds, 2),
		nodePeakRssMiB: mebibytes(figures.peakRssBytes),
		nodeGrowthMiB: mebibytes(figures.peakRssBytes - figures.startRssBytes),
		processPeakRssMiB: mebibytes(figures.peakRssBytes),
		graphqlRequests: figures.requests,
	};
}
