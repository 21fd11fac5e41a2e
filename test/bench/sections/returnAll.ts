import * as path from 'node:path';

import * as esbuild from 'esbuild';

import type { Sandbox } from '../../../dev/emulators';
import { REPO_ROOT } from '../../../dev/n8n/install';
import type { N8nInstance } from '../../../dev/n8n/n8n';
import { runGroup } from '../../../dev/n8n/processes';
import type { CliRun } from '../../../dev/n8n/run-data';
import type { CredentialRef, WorkflowJson } from '../../../dev/n8n/workflows';
import { countsSince, snapshot } from '../lib/counters';
import { executeMeasured, type MeasuredExecution } from '../lib/execute';
import { mebibytes } from '../lib/memory';
import { ratio } from '../lib/stats';
import {
	AI_NODE,
	baselineWorkflow,
	HTTP_NODE,
	httpReturnAllWorkflow,
	httpSplitReturnAllWorkflow,
	ourReturnAllWorkflow,
	PAGE_SIZE,
	SPLIT_NODE,
} from '../lib/workflows';

/** Return All of every face task: our node vs the HTTP Request node's pager vs a bare fetch loop. */

export interface ReturnAllCase {
	/** 'loopback' (the emulator as is) or '+N ms per request' (the emulator's slowMs, like a remote API). */
	scenario: string;
	contender: string;
	/** Rows the contender ended up with (checked against the dataset). */
	rows: number;
	/** n8n `executionTime` of the fetching node (for the fetch loop: its own wall time). */
	nodeMs: number;
	/** Extra node time to turn pages into one item per row (Split Out), when the contender needs it. */
	splitMs?: number;
	executionMs?: number;
	processWallMs: number;
	peakGroupRssMiB: number;
	/** Peak minus the same figure for a bare `n8n execute` (or, for the fetch loop, its RSS at start). */
	peakAboveBaselineMiB: number;
	peakProcessHwmMiB: number;
	/** Largest group RSS sampled while the fetching node ran, and its growth over the RSS at the node's start. */
	nodePeakRssMiB: number;
	nodeGrowthMiB: number;
	graphqlRequests: number;
	error?: string;
}

export interface ReturnAllResult {
	rows: number;
	baseline: { processWallMs: number; peakGroupRssMiB: number; peakProcessHwmMiB: number };
	cases: ReturnAllCase[];
	/** Our node's time over the HTTP Request node's, per scenario (target: at most 0.5). */
	oursOverHttp: Record<string, number>;
	/** The emulator's added delay per GraphQL request in the second scenario (0: not run). */
	latencyMs: number;
}

export interface ReturnAllSetup {
	n8n: N8nInstance;
	sandbox: Sandbox;
	aiCredential: CredentialRef;
	headerCredential: CredentialRef;
	/** A token of the sandbox for the fetch loop. */
	token: string;
	packageBuilt: boolean;
	log: (line: string) => void;
}

/** The workflows of this section by role; ours only when the package is built. */
export function returnAllWorkflows(setup: ReturnAllSetup): Record<string, WorkflowJson> {
	const { sandbox } = setup;
	return {
		baseline: baselineWorkflow(),
		http: httpReturnAllWorkflow(sandbox.ai.graphqlUrl, setup.headerCredential),
		httpSplit: httpSplitReturnAllWorkflow(sandbox.ai.graphqlUrl, setup.headerCredential),
		...(setup.packageBuilt ? { ours: ourReturnAllWorkflow(setup.aiCredential) } : {}),
	};
}

export async function runReturnAll(
	setup: ReturnAllSetup,
	ids: Record<string, string>,
	latencyMs: number,
): Promise<ReturnAllResult> {
	const rows = setup.sandbox.options.rows;
	setup.log('return all: baseline (bare n8n execute)');
	const baseline = await executeMeasured(setup.n8n, ids.baseline);
	const baselineRss = mebibytes(baseline.memory.peakGroupRssBytes);
	const cases = await runScenario(setup, ids, 'loopback', baselineRss, true);
	if (latencyMs > 0) {
		// A remote API answers after a network round trip; paging one page at a time pays it once per page.
		setup.sandbox.faults.set('ai', { slowMs: latencyMs });
		try {
			cases.push(
				...(await runScenario(setup, ids, `+${latencyMs} ms per request`, baselineRss, false)),
			);
		} finally {
			setup.sandbox.faults.clear('ai');
		}
	}
	for (const each of cases) {
		if (each.rows !== rows && !each.error) each.error = `got ${each.rows} rows, expected ${rows}`;
	}
	return {
		rows,
		baseline: {
			processWallMs: Math.round(baseline.processWallMs),
			peakGroupRssMiB: baselineRss,
			peakProcessHwmMiB: mebibytes(baseline.memory.peakProcessHwmBytes),
		},
		cases,
		oursOverHttp: ratiosPerScenario(cases),
		latencyMs,
	};
}

const OURS = 'Archive AI Metadata (Return All)';
const HTTP = 'HTTP Request, offset pagination (1 item per page)';

async function runScenario(
	setup: ReturnAllSetup,
	ids: Record<string, string>,
	scenario: string,
	baselineRss: number,
	withSplitOut: boolean,
): Promise<ReturnAllCase[]> {
	const cases: Array<Omit<ReturnAllCase, 'scenario'>> = [];
	if (ids.ours) {
		setup.log(`return all (${scenario}): Archive AI Metadata node`);
		cases.push(await n8nCase(setup, ids.ours, OURS, AI_NODE, undefined, baselineRss));
	}
	setup.log(`return all (${scenario}): HTTP Request node with pagination`);
	cases.push(await n8nCase(setup, ids.http, HTTP, HTTP_NODE, undefined, baselineRss));
	if (withSplitOut) {
		setup.log(`return all (${scenario}): HTTP Request node + Split Out`);
		cases.push(
			await n8nCase(
				setup,
				ids.httpSplit,
				'HTTP Request + Split Out (1 item per row)',
				HTTP_NODE,
				SPLIT_NODE,
				baselineRss,
			),
		);
	}
	setup.log(`return all (${scenario}): plain sequential fetch loop`);
	cases.push(await fetchLoopCase(setup, setup.sandbox.options.rows));
	return cases.map((each) => ({ ...each, scenario }));
}

function ratiosPerScenario(cases: ReturnAllCase[]): Record<string, number> {
	const ratios: Record<string, number> = {};
	for (const scenario of new Set(cases.map((each) => each.scenario))) {
		const ours = cases.find((each) => each.scenario === scenario && each.contender === OURS);
		const http = cases.find((each) => each.scenario === scenario && each.contender === HTTP);
		if (ours && http) ratios[scenario] = ratio(ours.nodeMs, http.nodeMs);
	}
	return ratios;
}

async function n8nCase(
	setup: ReturnAllSetup,
	workflowId: string,
	contender: string,
	fetchingNode: string,
	splitNode: string | undefined,
	baselineRssMiB: number,
): Promise<Omit<ReturnAllCase, 'scenario'>> {
	const before = snapshot(setup.sandbox);
	const measured = await executeMeasured(setup.n8n, workflowId, (run) => ({
		rows: rowsIn(run, fetchingNode, splitNode),
	}));
	const requests = countsSince(setup.sandbox, before);
	const peak = mebibytes(measured.memory.peakGroupRssBytes);
	const nodeMemory = measured.nodes[fetchingNode]?.memory;
	return {
		contender,
		rows: measured.checks.rows,
		nodeMs: measured.nodes[fetchingNode]?.executionTimeMs ?? Number.NaN,
		...(splitNode ? { splitMs: measured.nodes[splitNode]?.executionTimeMs ?? Number.NaN } : {}),
		executionMs: measured.executionMs,
		processWallMs: Math.round(measured.processWallMs),
		peakGroupRssMiB: peak,
		peakAboveBaselineMiB: Math.round((peak - baselineRssMiB) * 10) / 10,
		peakProcessHwmMiB: mebibytes(measured.memory.peakProcessHwmBytes),
		nodePeakRssMiB: mebibytes(nodeMemory?.peakBytes ?? Number.NaN),
		nodeGrowthMiB: mebibytes(
			(nodeMemory?.peakBytes ?? Number.NaN) - (nodeMemory?.atStartBytes ?? Number.NaN),
		),
		graphqlRequests: requests.aiGraphql,
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
function rowsIn(run: CliRun, fetchingNode: string, splitNode: string | undefined): number {
	const runData = run.data.resultData.runData;
	const items = (name: string) => runData[name]?.[0]?.data?.main?.[0] ?? [];
	if (splitNode) return items(splitNode).length;
	if (fetchingNode !== HTTP_NODE) return items(fetchingNode).length;
	return items(fetchingNode).reduce((sum, item) => {
		const page = (item.json as { data?: { face_tasks?: unknown[] } }).data?.face_tasks;
		return sum + (Array.isArray(page) ? page.length : 0);
	}, 0);
}

interface FetchLoopFigures {
	rows: number;
	requests: number;
	wallMs: number;
	startRssBytes: number;
	peakRssBytes: number;
}

/** The bare loop runs under n8n's Node 24, bundled beforehand so the bundler is not in its memory. */
async function fetchLoopCase(
	setup: ReturnAllSetup,
	rows: number,
): Promise<Omit<ReturnAllCase, 'scenario'>> {
	const script = bundleFetchLoop();
	const maxPages = Math.ceil(rows / PAGE_SIZE) + 2;
	const started = process.hrtime.bigint();
	const result = await runGroup(
		setup.n8n.install.nodeBin,
		[script, setup.sandbox.ai.graphqlUrl, String(PAGE_SIZE), String(maxPages)],
		{
			env: { PATH: process.env.PATH, BENCH_TOKEN: setup.token },
			timeoutMs: 300_000,
		},
	);
	const processWallMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
	const contender = 'Plain sequential fetch loop (Node 24, no n8n)';
	const line = result.stdout.trim().split('\n').at(-1) ?? '';
	if (result.code !== 0 || !line.startsWith('{')) {
		const none = Number.NaN;
		const error = result.stderr.trim().slice(0, 300) || `exit ${result.code}`;
		return {
			contender,
			rows: 0,
			nodeMs: none,
			processWallMs,
			peakGroupRssMiB: none,
			peakAboveBaselineMiB: none,
			peakProcessHwmMiB: none,
			nodePeakRssMiB: none,
			nodeGrowthMiB: none,
			graphqlRequests: 0,
			error,
		};
	}
	const figures = JSON.parse(line) as FetchLoopFigures;
	return {
		contender,
		rows: figures.rows,
		nodeMs: Math.round(figures.wallMs),
		processWallMs,
		peakGroupRssMiB: mebibytes(figures.peakRssBytes),
		peakAboveBaselineMiB: mebibytes(figures.peakRssBytes - figures.startRssBytes),
		peakProcessHwmMiB: mebibytes(figures.peakRssBytes),
		nodePeakRssMiB: mebibytes(figures.peakRssBytes),
		nodeGrowthMiB: mebibytes(figures.peakRssBytes - figures.startRssBytes),
		graphqlRequests: figures.requests,
	};
}

function bundleFetchLoop(): string {
	const outfile = path.join(REPO_ROOT, '.build', 'test', 'bench', 'fetchLoop.js');
	esbuild.buildSync({
		entryPoints: [path.join(REPO_ROOT, 'test', 'bench', 'fetchLoop.ts')],
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		outfile,
		logLevel: 'warning',
	});
	return outfile;
}
