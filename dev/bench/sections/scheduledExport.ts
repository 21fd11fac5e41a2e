import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { Sandbox } from '../../emulators';
import { ResponseCache } from '../../emulators/core/responseCache';
import { ensureN8nInstall } from '../../n8n/install';
import { N8nInstance, type CredentialImport } from '../../n8n/n8n';
import type { CredentialRef, WorkflowJson } from '../../n8n/workflows';
import { DEFAULT_TRIGGER_CONCURRENCY } from '../../../nodes/shared/n8n/limits';
import { runBarePager } from '../lib/barePager';
import { countsSince, snapshot } from '../lib/counters';
import { placeFloorPackage } from '../lib/floorPackage';
import { cpuInWindow, GroupMemorySampler, mebibytes, memoryInWindow } from '../lib/memory';
import { median, ratio, round } from '../lib/stats';
import {
	builtinExportWorkflow,
	EXPORT_PAGE_SIZE,
	EXPORT_POLL_SECONDS,
	EXPORT_VIEW,
	floorExportWorkflow,
	ourExportWorkflow,
	SPEECH_TASK_EXPORT_COLUMNS,
	type ExportPlan,
} from '../lib/workflows';

/**
 * Scheduled export, end to end, in real n8n: our AI Metadata Trigger finding every speech task as new in one poll
 * -> Convert to File (CSV) -> Write to disk, against the flow built from n8n's own nodes (Schedule Trigger -> HTTP
 * Request paging the GraphQL API by offset until a short page -> Split Out -> Convert to File -> Write to disk).
 *
 * Each case runs in a fresh n8n (own user folder and database, the package loaded in both) with only that
 * workflow active, so no case inherits another's heap or database. Both run once n8n is idle, 8 s after start-up:
 * - ours: the trigger polls every 5 s. n8n runs a poll trigger's first poll while it activates the workflow, during
 *   `n8n start`; the emulator withholds the speech tasks until then (that poll finds none and sets the trigger's
 *   cursor at Start From). 8 s after `n8n start` is ready, halfway between two poll times, the emulator releases
 *   every row at once, and the next poll finds them all. Start = the first GraphQL request after the release (the
 *   emulator timestamps it). (n8n's "fetch test event" runs the poll in manual mode, where the trigger only shows
 *   the newest record, so it measures nothing here.)
 * - built-in: the Schedule Trigger fires once, 8 s after activation (a one-moment cron). Start = the execution's
 *   startedAt (before its first request).
 * End = the execution's stoppedAt (the CSV is on disk). Every request to the AI API (GraphQL and token) waits
 * `latencyMs` in the emulator before its answer, for both alike: the real API is Hasura across the internet.
 * - floor (when asked): ours with the trigger replaced by a bench-only one (dev/bench/floorNode) that emits the same
 *   rows parsed already, released like ours. Start = that trigger's own mark after parsing, before it returns its
 *   items: what n8n and Convert to File need for the rows, which no trigger can go below.
 * - fetch floor (with the floor): a bare client (Node's fetch + JSON.parse, a process of its own, dev/bench/fetchLoop.ts)
 *   sending the very GraphQL requests ours' poll sent in the same round (recorded by the bench server), as many in
 *   flight as ours at its default, each answer waiting `latencyMs` as ours' did: what fetching the rows costs any
 *   client. Floor + fetch floor is what a trigger that must fetch its rows could reach at best.
 * Memory and CPU: the n8n process group (n8n + task runners) sampled from /proc every 100 ms; the peak between start
 * and end, and its growth over the last sample before start.
 */

export type ExportContender = 'ours' | 'builtin' | 'floor';

export interface ExportCase {
	contender: ExportContender;
	/** Ours: Max Concurrent Requests when set in the case (absent: the trigger's default). */
	concurrency?: number;
	label: string;
	/** 0: the warm-up run of this contender (the bench server renders its pages); not in the medians. */
	round: number;
	/** Start to end (see above). */
	totalMs: number;
	/**
	 * Ours: the poll's first GraphQL request to execution start (the poll fetching every row before the run exists);
	 * floor: its mark to execution start.
	 */
	pollMs?: number;
	/** The execution's stoppedAt - startedAt. */
	executionMs: number;
	peakRssMiB: number;
	rssAtStartMiB: number;
	growthMiB: number;
	/** CPU seconds (user + sys) of n8n's process group between start and end. */
	cpuSeconds: number;
	/** Data rows of the CSV on disk (header excluded). */
	csvRows: number;
	csvMiB: number;
	/** The CSV's size in bytes (the floor's must equal ours': the same rows, the same columns). */
	csvBytes: number;
	graphqlRequests: number;
	tokenRequests: number;
	/** CPU seconds of the bench process (emulator in it) between start and end: an upper bound on the server's. */
	serverCpuSeconds: number;
	/** Pages the bench server rendered during the case (0 once warmed: every answer was stored bytes). */
	serverRenders: number;
	executions: number;
	error?: string;
}

/** One run of the fetch floor: a bare client sending the page requests ours' poll sent in that round. */
export interface FetchFloorRun {
	round: number;
	/** First request to the last answer parsed. */
	wallMs: number;
	requests: number;
	/** Rows in the answers (the export's rows, once each). */
	rows: number;
	cpuSeconds: number;
	error?: string;
}

export interface ExportSummary {
	contender: ExportContender;
	concurrency?: number;
	label: string;
	rounds: number;
	medianTotalMs: number;
	medianPeakRssMiB: number;
	medianGrowthMiB: number;
	csvRows: number;
}

export interface ExportResult {
	rows: number;
	pageSize: number;
	view: string;
	columns: readonly string[];
	/** Delay the emulator adds to every request to the AI API, both contenders alike. */
	latencyMs: number;
	/** Seconds after start-up at which each contender's run begins (ours: the rows are released). */
	idleLeadSeconds: number;
	/** Ours: poll interval of the trigger, in seconds. */
	pollSeconds: number;
	/** Ours: the trigger's default Max Concurrent Requests, and the other settings that ran. */
	defaultConcurrency: number;
	otherConcurrencies: number[];
	rounds: number;
	warmup: boolean;
	cases: ExportCase[];
	summaries: ExportSummary[];
	/** With the floor: the fetch floor after each run of ours at its default (see the top of this file). */
	fetchFloor?: FetchFloorRun[];
	/** Median wall time of the measured fetch floor runs. */
	fetchFloorMedianMs?: number;
	/** Medians, ours (default settings) over built-in (targets: time ≤ 0.5, peak RSS ≤ 1: issue 26). */
	timeRatio?: number;
	peakRssRatio?: number;
	/** Medians, ours (default settings) over the floor, when the floor ran (target: time ≤ 1.2). */
	floorTimeRatio?: number;
	floorPeakRssRatio?: number;
	/**
	 * Medians, ours (default settings) over floor + fetch floor: how far ours is from what a trigger that must fetch
	 * the rows over HTTP could reach at best.
	 */
	fetchingFloorTimeRatio?: number;
	/** Ours at the Max Concurrent Requests with the lowest median time, when other settings ran too. */
	bestOurs?: { concurrency?: number; timeRatio?: number; peakRssRatio?: number };
}

export interface ExportCredential {
	imported: CredentialImport;
	ref: CredentialRef;
}

export interface ExportSetup {
	n8nVersion: string;
	/** Extra environment of every n8n process (BENCH_N8N_ENV). */
	env: Record<string, string>;
	/** The package's built dist is copied into each n8n (both contenders, so both n8n load the same nodes). */
	packageBuilt: boolean;
	/** Where the built package is (default: this repository), e.g. a packed copy in the e2e suite. */
	packageRoot?: string;
	/** An emulator in bench mode holding `rows` speech tasks. */
	sandbox: Sandbox;
	ourCredential: ExportCredential;
	/** A header credential for the built-in flow; its token is fetched fresh for each case. */
	headerCredential: (token: string) => ExportCredential;
	fetchToken: () => Promise<string>;
	/** Delay per request to the AI API (GraphQL and token), in ms: the distance to the real API. */
	latencyMs: number;
	/** Ours runs at its default Max Concurrent Requests and also at each of these. */
	ourConcurrencies?: number[];
	rounds: number;
	/** Also run the floor (a trigger emitting the rows parsed already) beside ours and the built-in flow. */
	floor?: boolean;
	/** Run each contender once first, unmeasured, so the bench server has rendered every page. */
	warmup: boolean;
	log: (line: string) => void;
}

/** One flow under test: the built-in one, or ours at its default or at a given Max Concurrent Requests. */
interface Contender {
	contender: ExportContender;
	concurrency?: number;
}

function labelOf({ contender, concurrency }: Contender): string {
	if (contender === 'builtin')
		return 'Schedule Trigger -> HTTP Request -> Split Out -> Convert to File';
	if (contender === 'floor')
		return 'Floor: a trigger emitting the rows parsed already -> Convert to File';
	return `Archive AI Metadata Trigger${concurrency === undefined ? '' : ` (Max Concurrent Requests ${concurrency})`} -> Convert to File`;
}

function nameOf({ contender, concurrency }: Contender): string {
	return concurrency === undefined ? contender : `${contender} at ${concurrency} in flight`;
}

function sameContender(a: Contender, b: Contender): boolean {
	return a.contender === b.contender && a.concurrency === b.concurrency;
}
/**
 * Seconds between start-up and a run: the Schedule Trigger fires this long after activation; ours gets its rows this
 * long after `n8n start` is ready. n8n has settled after start-up by then.
 */
const IDLE_LEAD_SECONDS = 8;
const RUN_DEADLINE_MS = 600_000;
/** Before every processed_time the emulator generates. */
export const EXPORT_SINCE = '2000-01-01T00:00:00.000Z';

export async function runScheduledExport(setup: ExportSetup): Promise<ExportResult> {
	const stored = setup.sandbox.data.ai.rows(EXPORT_VIEW);
	const rows = new Set(stored.map((row) => String(row.task_id))).size;
	if (rows !== stored.length) {
		// Two identical rows (the emulator's 32-bit row seeds collide now and then): the built-in flow would export
		// both, our trigger one (it keeps a row seen twice once), so the CSVs could not be compared.
		throw new Error(
			`the emulator holds ${stored.length - rows} duplicate ${EXPORT_VIEW} (same task_id) among ${stored.length}: pick another --export-seed`,
		);
	}
	setup.sandbox.faults.clear('ai');
	setup.sandbox.faults.clear('aiAuth');
	// A remote API answers after a network round trip: a timer in the emulator, not CPU.
	if (setup.latencyMs > 0) {
		setup.sandbox.faults.set('ai', { slowMs: setup.latencyMs });
		setup.sandbox.faults.set('aiAuth', { slowMs: setup.latencyMs });
	}
	try {
		return await runRounds(setup, rows);
	} finally {
		setup.sandbox.faults.clear('ai');
		setup.sandbox.faults.clear('aiAuth');
	}
}

async function runRounds(setup: ExportSetup, rows: number): Promise<ExportResult> {
	const ours: Contender[] = setup.packageBuilt
		? [
				{ contender: 'ours' },
				...(setup.ourConcurrencies ?? []).map((concurrency) => ({
					contender: 'ours' as const,
					concurrency,
				})),
			]
		: [];
	const contenders: Contender[] = [
		...ours,
		{ contender: 'builtin' },
		...(setup.floor ? [{ contender: 'floor' as const }] : []),
	];
	const cases: ExportCase[] = [];
	const fetchFloor: FetchFloorRun[] = [];
	for (let round = setup.warmup ? 0 : 1; round <= setup.rounds; round++) {
		// Alternating, so that a change in machine load hits both alike.
		for (const contender of contenders) {
			setup.log(
				`scheduled export: ${round === 0 ? 'warm-up' : `round ${round}/${setup.rounds}`}, ${nameOf(contender)}, ${rows} rows`,
			);
			const { measured, requestKeys } = await runCase(setup, contender, rows);
			const done = { ...measured, round };
			cases.push(done);
			setup.log(
				`scheduled export: ${nameOf(contender)}: ${done.totalMs} ms, peak ${done.peakRssMiB} MiB, ${done.csvRows} CSV rows${done.error ? `, ${done.error}` : ''}`,
			);
			if (setup.floor && contender.contender === 'ours' && contender.concurrency === undefined) {
				const run = { ...(await runFetchFloor(setup, requestKeys, rows)), round };
				fetchFloor.push(run);
				setup.log(
					`scheduled export: fetch floor: ${run.wallMs} ms, ${run.requests} requests, ${run.rows} rows${run.error ? `, ${run.error}` : ''}`,
				);
			}
		}
	}
	const measuredFetchFloor = fetchFloor.filter((each) => each.round > 0 && !each.error);
	const fetchFloorMedianMs = measuredFetchFloor.length
		? median(measuredFetchFloor.map((each) => each.wallMs))
		: undefined;
	const summaries = contenders.map((contender) => summarize(contender, cases));
	const oursDefault = summaries.find(
		(each) => each.contender === 'ours' && each.concurrency === undefined,
	);
	const builtin = summaries.find((each) => each.contender === 'builtin');
	const floor = summaries.find((each) => each.contender === 'floor' && each.rounds > 0);
	const fastestOurs = summaries
		.filter((each) => each.contender === 'ours' && each.rounds > 0)
		.sort((a, b) => a.medianTotalMs - b.medianTotalMs)[0];
	return {
		rows,
		pageSize: EXPORT_PAGE_SIZE,
		view: EXPORT_VIEW,
		columns: SPEECH_TASK_EXPORT_COLUMNS,
		latencyMs: setup.latencyMs,
		idleLeadSeconds: IDLE_LEAD_SECONDS,
		pollSeconds: EXPORT_POLL_SECONDS,
		defaultConcurrency: DEFAULT_TRIGGER_CONCURRENCY,
		otherConcurrencies: setup.ourConcurrencies ?? [],
		rounds: setup.rounds,
		warmup: setup.warmup,
		cases,
		summaries,
		...(setup.floor ? { fetchFloor, fetchFloorMedianMs } : {}),
		...(oursDefault && builtin
			? {
					timeRatio: ratio(oursDefault.medianTotalMs, builtin.medianTotalMs),
					peakRssRatio: ratio(oursDefault.medianPeakRssMiB, builtin.medianPeakRssMiB),
				}
			: {}),
		...(oursDefault && floor
			? {
					floorTimeRatio: ratio(oursDefault.medianTotalMs, floor.medianTotalMs),
					floorPeakRssRatio: ratio(oursDefault.medianPeakRssMiB, floor.medianPeakRssMiB),
				}
			: {}),
		...(oursDefault && floor && fetchFloorMedianMs !== undefined
			? {
					fetchingFloorTimeRatio: ratio(
						oursDefault.medianTotalMs,
						floor.medianTotalMs + fetchFloorMedianMs,
					),
				}
			: {}),
		...(fastestOurs && builtin && ours.length > 1
			? {
					bestOurs: {
						concurrency: fastestOurs.concurrency,
						timeRatio: ratio(fastestOurs.medianTotalMs, builtin.medianTotalMs),
						peakRssRatio: ratio(fastestOurs.medianPeakRssMiB, builtin.medianPeakRssMiB),
					},
				}
			: {}),
	};
}

function summarize(contender: Contender, cases: ExportCase[]): ExportSummary {
	const ofContender = cases.filter((each) => sameContender(each, contender));
	const measured = ofContender.filter((each) => each.round > 0 && !each.error);
	return {
		...contender,
		label: labelOf(contender),
		rounds: measured.length,
		medianTotalMs: median(measured.map((each) => each.totalMs)),
		medianPeakRssMiB: median(measured.map((each) => each.peakRssMiB)),
		medianGrowthMiB: median(measured.map((each) => each.growthMiB)),
		csvRows: Math.min(...ofContender.map((each) => each.csvRows)),
	};
}

interface ExecutionRow {
	status: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

async function runCase(
	setup: ExportSetup,
	{ contender, concurrency }: Contender,
	expectedRows: number,
): Promise<{ measured: Omit<ExportCase, 'round'>; requestKeys: string[] }> {
	const csvDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
	const plan: ExportPlan = {
		since: EXPORT_SINCE,
		rows: expectedRows,
		csvPath: path.join(csvDir, 'export.csv'),
	};
	const n8n = await N8nInstance.create({
		version: setup.n8nVersion,
		packageMode: setup.packageBuilt ? 'copy' : 'none',
		...(setup.packageRoot ? { packageRoot: setup.packageRoot } : {}),
		env: { ...setup.env, N8N_RESTRICT_FILE_ACCESS_TO: csvDir, GENERIC_TIMEZONE: 'UTC' },
	});
	let sampler: GroupMemorySampler | undefined;
	const dataset = setup.sandbox.data.ai;
	let withheld = false;
	const floorFiles = {
		rowsFile: path.join(csvDir, 'rows.json'),
		startFile: path.join(csvDir, 'start'),
	};
	const floorRowsPending = `${floorFiles.rowsFile}.pending`;
	// Ours and the floor get their rows at a moment the bench chooses; the built-in flow's schedule fires by itself.
	const released = contender !== 'builtin';
	try {
		let workflow: WorkflowJson;
		if (contender === 'floor') {
			placeFloorPackage(n8n.userFolder);
			writeFloorRows(floorRowsPending, setup.sandbox);
			workflow = floorExportWorkflow(plan, floorFiles);
		} else {
			const credential =
				contender === 'ours'
					? setup.ourCredential
					: setup.headerCredential(await setup.fetchToken());
			await n8n.importCredentials([credential.imported]);
			workflow =
				contender === 'ours'
					? ourExportWorkflow(credential.ref, plan, concurrency)
					: builtinExportWorkflow(
							setup.sandbox.ai.graphqlUrl,
							credential.ref,
							plan,
							IDLE_LEAD_SECONDS,
						);
		}
		await n8n.importWorkflows([workflow]);
		await n8n.activate(workflow.id, workflow.name);

		const cache = setup.sandbox.responseCaches?.ai;
		if (!cache) throw new Error('the scheduled export benchmark needs an emulator in bench mode');
		// Ours: the poll n8n runs while activating the workflow (during `n8n start`) must find nothing.
		if (contender === 'ours') {
			dataset.withhold(EXPORT_VIEW);
			withheld = true;
		}
		let before = snapshot(setup.sandbox);
		let rendersBefore = cache.stats().misses;
		setup.sandbox.counters.watchFirstRequest();
		let cpuBefore = process.cpuUsage();
		const starting = n8n.start();
		const pid = n8n.serverPid;
		if (pid === undefined) throw new Error('n8n did not start');
		sampler = new GroupMemorySampler(pid);
		await starting;
		if (released) {
			await sleep(releaseDelayMs(Date.now()));
			// One synchronous step: no request can reach the emulator (in this process) between these lines.
			before = snapshot(setup.sandbox);
			rendersBefore = cache.stats().misses;
			cpuBefore = process.cpuUsage();
			setup.sandbox.counters.watchFirstRequest();
			if (contender === 'ours') {
				cache.startRecording();
				dataset.release(EXPORT_VIEW);
				withheld = false;
			} else {
				fs.renameSync(floorRowsPending, floorFiles.rowsFile);
			}
		}
		const execution = await waitForExecution(n8n, workflow.id);
		const requestKeys = cache.stopRecording();
		const memory = sampler.stop();
		const cpu = process.cpuUsage(cpuBefore);
		const counts = countsSince(setup.sandbox, before);
		const executions = await n8n.query<ExecutionRow>(
			`SELECT status, startedAt, stoppedAt FROM execution_entity WHERE workflowId = '${workflow.id}'`,
		);
		await n8n.stop();

		const startedAt = sqliteTime(execution.startedAt);
		const stoppedAt = sqliteTime(execution.stoppedAt);
		const firstRequest = setup.sandbox.counters.firstRequestAt('ai', 'graphql');
		const start =
			contender === 'ours'
				? (firstRequest ?? Number.NaN)
				: contender === 'floor'
					? floorStart(floorFiles.startFile)
					: startedAt;
		const window = memoryInWindow(memory.series, start, stoppedAt - start);
		const csv = fs.existsSync(plan.csvPath) ? fs.readFileSync(plan.csvPath) : Buffer.alloc(0);
		const csvRows = countCsvRecords(csv) - (csv.length > 0 ? 1 : 0);
		const problems = [
			execution.status === 'success' ? '' : `execution ${execution.status}`,
			csvRows === expectedRows ? '' : `CSV holds ${csvRows} rows, expected ${expectedRows}`,
			executions.length === 1 ? '' : `${executions.length} executions, expected 1`,
		].filter(Boolean);
		const measured = {
			contender,
			...(concurrency === undefined ? {} : { concurrency }),
			label: labelOf({ contender, concurrency }),
			totalMs: stoppedAt - start,
			...(released ? { pollMs: startedAt - start } : {}),
			executionMs: stoppedAt - startedAt,
			peakRssMiB: mebibytes(window.peakBytes),
			rssAtStartMiB: mebibytes(window.atStartBytes),
			growthMiB: mebibytes(window.peakBytes - window.atStartBytes),
			cpuSeconds: cpuInWindow(memory.cpuSeries, start, stoppedAt - start),
			csvRows,
			csvMiB: mebibytes(csv.length),
			csvBytes: csv.length,
			graphqlRequests: counts.aiGraphql,
			tokenRequests: counts.aiToken,
			serverCpuSeconds: Math.round(((cpu.user + cpu.system) / 1e6) * 100) / 100,
			serverRenders: cache.stats().misses - rendersBefore,
			executions: executions.length,
			...(problems.length ? { error: problems.join('; ') } : {}),
		};
		return { measured, requestKeys };
	} finally {
		setup.sandbox.responseCaches?.ai.stopRecording();
		if (withheld) dataset.release(EXPORT_VIEW);
		sampler?.stop();
		await n8n.dispose();
		fs.rmSync(csvDir, { recursive: true, force: true });
	}
}

/**
 * The fetch floor of one round: a bare client sends the GraphQL requests ours' poll sent (`requestKeys`, recorded by
 * the bench server, which answers them from stored bytes after the same delay), as many in flight as ours at its
 * default, in a process of its own under n8n's Node.
 */
async function runFetchFloor(
	setup: ExportSetup,
	requestKeys: string[],
	expectedRows: number,
): Promise<Omit<FetchFloorRun, 'round'>> {
	const failed = (error: string) => ({
		wallMs: Number.NaN,
		requests: requestKeys.length,
		rows: 0,
		cpuSeconds: Number.NaN,
		error,
	});
	if (requestKeys.length === 0) return failed('ours sent no request to replay');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fetch-floor-'));
	try {
		const file = path.join(dir, 'requests.json');
		fs.writeFileSync(file, JSON.stringify(requestKeys.map((key) => ResponseCache.requestOf(key))));
		const run = await runBarePager(
			ensureN8nInstall(setup.n8nVersion).nodeBin,
			['replay', setup.sandbox.ai.graphqlUrl, String(DEFAULT_TRIGGER_CONCURRENCY), file],
			await setup.fetchToken(),
		);
		if ('error' in run) return failed(run.error);
		const { figures } = run;
		return {
			wallMs: Math.round(figures.wallMs),
			requests: figures.requests,
			rows: figures.rows,
			cpuSeconds: round(figures.cpuSeconds, 2),
			...(figures.rows === expectedRows
				? {}
				: { error: `the answers held ${figures.rows} rows, expected ${expectedRows}` }),
		};
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

const floorRowsText = new WeakMap<Sandbox, string>();

/**
 * The rows the floor emits: every speech task with the columns ours selects, exactly as the API answers them
 * (transcripts included), rendered once per emulator.
 */
function writeFloorRows(file: string, sandbox: Sandbox): void {
	let text = floorRowsText.get(sandbox);
	if (text === undefined) {
		const dataset = sandbox.data.ai;
		const columns = [...SPEECH_TASK_EXPORT_COLUMNS];
		text = JSON.stringify(
			dataset.rows(EXPORT_VIEW).map((row) => dataset.record(EXPORT_VIEW, row, columns)),
		);
		floorRowsText.set(sandbox, text);
	}
	fs.writeFileSync(file, text);
}

/** The floor trigger's mark (ms since the epoch), written once its rows were parsed. */
function floorStart(file: string): number {
	return fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : Number.NaN;
}

/**
 * How long to wait, from `readyAt` (n8n's start-up done), before releasing the rows: at least IDLE_LEAD_SECONDS, then
 * on to halfway between two of the trigger's poll times (they are at whole multiples of the interval on the clock),
 * so that no poll is under way at the release: the first poll after it asks for every row from its first request.
 */
export function releaseDelayMs(readyAt: number): number {
	const interval = EXPORT_POLL_SECONDS * 1000;
	const earliest = readyAt + IDLE_LEAD_SECONDS * 1000;
	const halfway = Math.floor(earliest / interval) * interval + interval / 2;
	return (halfway >= earliest ? halfway : halfway + interval) - readyAt;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** SQLite keeps n8n's dates as UTC text, `YYYY-MM-DD HH:MM:SS.SSS`. */
function sqliteTime(value: string | null): number {
	if (!value) return Number.NaN;
	return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

/** Waits until the workflow has a finished execution (the first one) and returns it. */
async function waitForExecution(n8n: N8nInstance, workflowId: string): Promise<ExecutionRow> {
	const deadline = Date.now() + RUN_DEADLINE_MS;
	for (;;) {
		const [row] = await n8n.query<ExecutionRow>(
			`SELECT status, startedAt, stoppedAt FROM execution_entity WHERE workflowId = '${workflowId}' ORDER BY id LIMIT 1`,
		);
		if (row && row.stoppedAt && !['new', 'running', 'waiting'].includes(row.status)) return row;
		if (!n8n.running || n8n.died) throw new Error(`n8n stopped before the export finished`);
		if (Date.now() > deadline)
			throw new Error(
				`no finished execution after ${RUN_DEADLINE_MS / 1000} s:\n${n8n.serverLog().slice(-2_000)}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * CSV records in `bytes` (RFC 4180: a line break inside double quotes belongs to the field; a doubled quote inside
 * quotes is an escaped quote, which toggling twice handles). A last record without a line break counts too.
 */
export function countCsvRecords(bytes: Buffer): number {
	const QUOTE = 0x22;
	const LF = 0x0a;
	let records = 0;
	let quoted = false;
	for (let index = 0; index < bytes.length; index++) {
		const byte = bytes[index];
		if (byte === QUOTE) quoted = !quoted;
		else if (byte === LF && !quoted) records++;
	}
	if (bytes.length > 0 && bytes[bytes.length - 1] !== LF) records++;
	return records;
}
