import type { GetByPidResult } from '../sections/getByPid';
import { enrichmentSection, type EnrichmentResult } from '../sections/enrichment';
import type { PagingResult } from '../sections/returnAll';
import type { TokenRun } from '../sections/tokens';
import type { ExportResult, ExportSummary } from '../sections/scheduledExport';
import type { TriggerRatio, TriggerResult } from '../sections/trigger';
import { formatCell, markdownTable, verdict } from './report';

export interface BenchResults {
	generatedAt: string;
	n8nVersion: string;
	machine: {
		cpu: string;
		cores: number;
		memoryGiB: number;
		n8nNode: string;
		benchNode: string;
		/** 1, 5 and 15 minute load averages: other work on the machine skews every figure. */
		loadAverageAtStart: number[];
		loadAverageAtEnd?: number[];
	};
	options: Record<string, unknown>;
	/** Environment added to n8n's (the sections' needs and BENCH_N8N_ENV), beside the harness's own. */
	n8nEnv?: Record<string, string>;
	packageBuilt: { ai: boolean; org: boolean; sip: boolean };
	returnAll?: PagingResult;
	orgReturnAll?: PagingResult;
	getByPid?: GetByPidResult;
	enrichment?: EnrichmentResult;
	aiEnrichment?: EnrichmentResult;
	tokensCli?: TokenRun;
	tokensServer?: TokenRun;
	trigger?: TriggerResult;
	scheduledExport?: ExportResult;
	errors: Array<{ section: string; message: string }>;
	totalSeconds?: number;
}

const METHOD = [
	'Method:',
	"- Node time = n8n's own `executionTime` of the node in the run data (`n8n execute --rawOutput`); execution = stoppedAt - startedAt; process = spawn to exit of `n8n execute` (start-up and printing the run data included).",
	'- Memory: every case runs in its own `n8n execute` process group (n8n + task runners); /proc is sampled every 100 ms. "During node" = the largest summed VmRSS of the group between the node\'s startTime and startTime + executionTime, and its growth over the last sample before the node started. "Process peak" = the largest summed VmRSS over the whole process (n8n serialising the run for printing included); "above baseline" subtracts the same figure for a bare Manual Trigger -> NoOp execution. The fetch loop reports its own maxRSS and its RSS at start.',
	'- Requests and token requests are counted by the emulators (server side).',
	"- Trigger latency = request sent to response received at the sender (a fresh connection per delivery, as the emulator's sender does, 15 s timeout), after a warm-up; every contender's workflow is active in the same running n8n and they get the events in alternating rounds.",
].join('\n');

export function renderResults(results: BenchResults): string {
	const parts = [
		`# Benchmarks (n8n ${results.n8nVersion}, ${results.generatedAt})`,
		`Machine: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.memoryGiB} GiB; n8n on Node ${results.machine.n8nNode}, bench on Node ${results.machine.benchNode}. Load average at start ${results.machine.loadAverageAtStart.join(' / ')}, at end ${results.machine.loadAverageAtEnd?.join(' / ') ?? '?'}. Total ${results.totalSeconds ?? '?'} s.`,
		`n8n environment added by the bench: ${
			results.n8nEnv && Object.keys(results.n8nEnv).length > 0
				? Object.entries(results.n8nEnv)
						.map(([name, value]) => `\`${name}=${value}\``)
						.join(', ')
				: 'none'
		} (besides the harness's, dev/n8n/n8n.ts; on 1.x it turns task runners on unless N8N_RUNNERS_ENABLED is given).`,
		METHOD,
		results.returnAll ? returnAllSection(results.returnAll) : '',
		results.orgReturnAll ? returnAllSection(results.orgReturnAll) : '',
		results.tokensServer || results.tokensCli
			? tokensSection(results.tokensServer, results.tokensCli)
			: '',
		results.getByPid ? getByPidSection(results.getByPid) : '',
		results.enrichment ? enrichmentSection(results.enrichment) : '',
		results.aiEnrichment ? enrichmentSection(results.aiEnrichment) : '',
		results.trigger ? triggerSection(results.trigger) : '',
		results.scheduledExport ? scheduledExportSection(results.scheduledExport) : '',
		errorsSection(results),
	];
	return `${parts.filter(Boolean).join('\n\n')}\n`;
}

const MIB = 1024 * 1024;

export function returnAllSection(result: PagingResult): string {
	const what = result.api === 'ai' ? 'face tasks' : 'organizations';
	const table = markdownTable(
		[
			'Latency',
			'Contender',
			'Rows',
			'Time ms',
			'Split Out ms',
			'CPU s',
			'Growth MiB',
			'Peak RSS during node MiB',
			'Process peak RSS MiB',
			'Requests',
			'Error',
		],
		result.cases.map((each) => [
			`+${each.latencyMs} ms`,
			each.contender,
			each.rows,
			each.nodeMs,
			each.splitMs,
			each.cpuSeconds,
			each.nodeGrowthMiB,
			each.nodePeakRssMiB,
			each.processPeakRssMiB,
			each.graphqlRequests,
			each.error,
		]),
	);
	const ratioTable = markdownTable(
		[
			'Latency',
			'Ours (default) / HTTP',
			'Best of ours / HTTP',
			'Best concurrency',
			'Ours (default) / bare pager',
			'Best of ours / bare pager',
			'Growth / JSON bytes',
		],
		result.ratios.map((each) => [
			`+${each.latencyMs} ms`,
			each.oursOverHttp,
			each.bestOverHttp,
			each.bestConcurrency,
			each.oursOverBare,
			each.bestOverBare,
			each.growthOverBytes,
		]),
	);
	return [
		`## Return All of ${result.rows.toLocaleString('en-US')} ${what} (page ${result.pageSize}, bench server)`,
		`Bench server (emulator in bench mode, in the bench process): a page rendered the first time took ${formatCell(result.server.renderMsPerPage)} ms; served from stored bytes, ${formatCell(result.server.cpuMsPerPage)} ms CPU per page (the whole bench process during a bare pager run, an upper bound); ${result.server.missesAfterWarmup} pages rendered during the measured runs (0: every contender got stored bytes). JSON received per Return All: ${formatCell(Math.round((result.bytesReceived / MIB) * 10) / 10)} MiB (${result.bytesReceived.toLocaleString('en-US')} bytes). Latency is a timer per request in the server.`,
		table,
		ratioTable,
		`"Time" = n8n's executionTime of the paging node (HTTP Request's alone for the Split Out row; the bare pager's own wall time). "CPU s" = user + sys of the n8n process group (n8n + task runners) while the node(s) ran, from /proc sampled every 100 ms (±0.1 s at each end); the bare pager's own process.cpuUsage(). "Growth" = group RSS peak while the node(s) ran minus the RSS before (the bare pager: maxRSS minus RSS at start). Baseline bare \`n8n execute\`: ${result.baseline.processWallMs} ms, peak ${result.baseline.peakGroupRssMiB} MiB.`,
		targetsOf(result),
	].join('\n\n');
}

function targetsOf(result: PagingResult): string {
	const at = (latency: number) => result.ratios.find((each) => each.latencyMs === latency);
	const lines: string[] = [];
	if (result.api === 'ai') {
		const targets: Array<[number, number]> = [
			[0, 1.0],
			[50, 0.4],
			[100, 0.3],
		];
		for (const [latency, limit] of targets) {
			const ratios = at(latency);
			if (ratios)
				lines.push(
					`- ours / HTTP Request at +${latency} ms: default ${verdict(ratios.oursOverHttp, limit)}; best ${verdict(ratios.bestOverHttp, limit)}`,
				);
		}
		for (const ratios of result.ratios)
			lines.push(
				`- ours / bare pager at +${ratios.latencyMs} ms: default ${verdict(ratios.oursOverBare, 1.3)}; best ${verdict(ratios.bestOverBare, 1.3)}`,
			);
		for (const ratios of result.ratios) {
			const split = result.cases.find(
				(each) => each.latencyMs === ratios.latencyMs && each.kind === 'httpSplit',
			);
			const ours = result.cases.find(
				(each) =>
					each.latencyMs === ratios.latencyMs &&
					each.kind === 'ours' &&
					each.concurrency === result.defaultConcurrency,
			);
			lines.push(
				`- RSS growth at +${ratios.latencyMs} ms: ours ${formatCell(ours?.nodeGrowthMiB)} MiB = ${verdict(ratios.growthOverBytes, 3)} x JSON bytes; HTTP Request + Split Out ${formatCell(split?.nodeGrowthMiB)} MiB (${ours && split && ours.nodeGrowthMiB < split.nodeGrowthMiB ? 'ours below: met' : 'ours not below: MISSED'})`,
			);
		}
	} else {
		const ratios = at(50);
		if (ratios)
			lines.push(
				`- ours / HTTP Request at +50 ms: default ${verdict(ratios.oursOverHttp, 0.5)}; best ${verdict(ratios.bestOverHttp, 0.5)}`,
			);
	}
	return ['Targets:', ...lines].join('\n');
}

function tokensSection(server: TokenRun | undefined, cli: TokenRun | undefined): string {
	const runs = [server, cli].filter((each): each is TokenRun => each !== undefined);
	const table = markdownTable(
		[
			'Method',
			'Executions',
			'Succeeded',
			'AI token requests',
			'Org token requests',
			'AI GraphQL requests',
			'Org GraphQL requests',
			'Wall s',
			'Error',
		],
		runs.map((each) => [
			each.method,
			each.executions,
			each.succeeded,
			each.aiTokenRequests,
			each.orgTokenRequests,
			each.aiGraphqlRequests,
			each.orgGraphqlRequests,
			Math.round(each.wallMs / 100) / 10,
			each.firstError,
		]),
	);
	const worst = Math.max(
		...runs.map((each) => Math.max(each.aiTokenRequests, each.orgTokenRequests)),
	);
	return [
		'## Token requests over consecutive executions',
		table,
		`Token requests per service and token lifetime: ${verdict(worst, 1)}.`,
	].join('\n\n');
}

function getByPidSection(result: GetByPidResult): string {
	const table = markdownTable(
		[
			'Contender',
			'Input items',
			'Rows',
			'GraphQL requests',
			'Token requests',
			'Node time ms',
			'Execution ms',
			'Process ms',
			'Error',
		],
		result.cases.map((each) => [
			each.contender,
			each.inputItems,
			each.rows,
			each.graphqlRequests,
			each.tokenRequests,
			each.nodeMs,
			each.executionMs,
			each.processWallMs,
			each.error,
		]),
	);
	const ours = result.cases.find((each) => each.contender.startsWith('Archive'));
	return [
		`## Get by PID for ${result.inputItems.toLocaleString('en-US')} input items (${result.distinctPids} distinct PIDs, ${result.expectedRows} rows expected)`,
		table,
		`Requests of our node (introspection included): ${verdict(ours?.graphqlRequests, 10)}. Our node's time / GraphQL node's time: ${verdict(result.oursOverGraphql, 1, 'lower is better')}.`,
	].join('\n\n');
}

const TRIGGER_KIND_LABELS: Record<TriggerRatio['contender'], string> = {
	ours: 'Ours (Immediately)',
	oursAfterSaved: 'Ours (After the Event Is Saved)',
	careful: "Careful user's workflow",
	minimal: 'Minimal community trigger',
	plain: "n8n's Webhook node",
};

/** "1.2 met (target ≥ 1)" or "0.8 MISSED (target ≥ 1)": `verdict` for figures that must reach a floor. */
function atLeast(value: number, limit: number): string {
	if (!Number.isFinite(value)) return `n/a (target ≥ ${limit})`;
	return `${formatCell(value)} ${value >= limit ? 'met' : 'MISSED'} (target ≥ ${limit})`;
}

export function triggerSection(result: TriggerResult): string {
	const table = markdownTable(
		[
			'Contender',
			'Events',
			'Senders',
			'p50 ms',
			'p99 ms',
			'Mean ms',
			'Max ms',
			'p50 per round ms',
			'Events/s',
			'Errors',
			'Statuses',
			'Executions ok',
			'Executions failed',
			'Executions unfinished',
			'Lost',
			'Bad deliveries',
		],
		result.cases.map((each) => [
			each.contender,
			each.events,
			each.concurrency,
			each.p50Ms,
			each.p99Ms,
			each.meanMs,
			each.maxMs,
			each.p50ByRoundMs.map((value) => Math.round(value)).join(' / '),
			each.eventsPerSecond,
			each.errors,
			Object.entries(each.statuses)
				.map(([status, count]) => `${status}: ${count}`)
				.join(', '),
			each.executionsSucceeded,
			each.executionsFailed,
			each.executionsUnfinished,
			each.lost,
			each.refusals
				? `${Object.entries(each.refusals.statuses)
						.map(([name, status]) => `${name} ${status}`)
						.join(', ')}; ran ${each.refusals.ran}${each.refusals.ok ? '' : ' FAILED'}`
				: '–',
		]),
	);
	const ratios = markdownTable(
		['Ratio', 'p50', 'p99', 'Events/s', 'Target'],
		result.ratios.map((each) => [
			`${TRIGGER_KIND_LABELS[each.contender]} / ${TRIGGER_KIND_LABELS[each.over]}`,
			each.p50,
			each.p99,
			each.eventsPerSecond,
			each.target === undefined
				? '–'
				: `p50 and p99 ${verdict(Math.max(each.p50, each.p99), each.target)}; events/s ${atLeast(each.eventsPerSecond, 1)}`,
		]),
	);
	const errors = result.cases.flatMap((each) =>
		each.firstError ? [`${each.contender}: ${each.firstError}`] : [],
	);
	const refusalsFailed = result.cases.filter((each) => each.refusals && !each.refusals.ok);
	return [
		'## Trigger under concurrent senders',
		table,
		ratios,
		`Warm-up: ${result.warmupEvents} events per workflow first (in the execution counts, not in the latencies); then ${result.rounds} rounds alternating between the workflows, each round starting with the next one. Ours and the careful user's Code node take a Timestamp Tolerance of ${result.toleranceSeconds} s. Bad deliveries, before the warm-up: one signed with another secret, one signed right but an hour old; each must be answered 401 and its event must not reach the node after the trigger ("ran"). Each sender waits for its answer, so mean latency = senders / events per second.`,
		...(refusalsFailed.length
			? [`REFUSAL CHECK FAILED: ${refusalsFailed.map((each) => each.contender).join('; ')}`]
			: []),
		...(errors.length ? [`First errors: ${errors.join('; ')}`] : []),
	].join('\n\n');
}

export function scheduledExportSection(result: ExportResult): string {
	const table = markdownTable(
		[
			'Contender',
			'Run',
			'Time ms',
			'Poll ms',
			'Execution ms',
			'Peak RSS MiB',
			'RSS at start MiB',
			'Growth MiB',
			'n8n CPU s',
			'Rows in CSV',
			'CSV MiB',
			'GraphQL requests',
			'Bench server CPU s',
			'Pages rendered',
			'Error',
		],
		result.cases.map((each) => [
			each.label,
			each.round === 0 ? 'warm-up' : each.round,
			each.totalMs,
			each.pollMs,
			each.executionMs,
			each.peakRssMiB,
			each.rssAtStartMiB,
			each.growthMiB,
			each.cpuSeconds,
			each.csvRows,
			each.csvMiB,
			each.graphqlRequests,
			each.serverCpuSeconds,
			each.serverRenders,
			each.error,
		]),
	);
	const builtin = result.summaries.find((each) => each.contender === 'builtin');
	const floor = result.summaries.find((each) => each.contender === 'floor');
	const ourSummaries = result.summaries.filter((each) => each.contender === 'ours');
	const over = (ours: number, theirs: number | undefined) =>
		theirs ? Math.round((ours / theirs) * 100) / 100 : undefined;
	// One row per setting of ours: its medians over the peer's (time, peak RSS, growth).
	const ratioRows = (peerName: string, peer: ExportSummary | undefined) =>
		ourSummaries.map((ours) => [
			`Ratio ours${ours.concurrency === undefined ? '' : ` (${ours.concurrency} in flight)`} / ${peerName}`,
			over(ours.medianTotalMs, peer?.medianTotalMs),
			over(ours.medianPeakRssMiB, peer?.medianPeakRssMiB),
			over(ours.medianGrowthMiB, peer?.medianGrowthMiB),
			undefined,
			undefined,
		]);
	const sideBySide = markdownTable(
		[
			'Median of measured runs (nearest rank: of two, the lower)',
			'Time ms',
			'Peak RSS MiB',
			'Growth MiB',
			'Rows in CSV',
			'Runs',
		],
		[
			...result.summaries.map((each) => [
				each.label,
				each.medianTotalMs,
				each.medianPeakRssMiB,
				each.medianGrowthMiB,
				each.csvRows,
				each.rounds,
			]),
			...ratioRows('built-in', builtin),
			...(floor ? ratioRows('floor', floor) : []),
		],
	);
	const best = result.bestOurs;
	const fetchFloorTable = result.fetchFloor?.length
		? markdownTable(
				[
					"Fetch floor: a bare client sending ours' page requests (fetch + JSON.parse, own process)",
					'Run',
					'Time ms',
					'Requests',
					'Rows',
					'CPU s',
					'Error',
				],
				result.fetchFloor.map((each) => [
					`${result.defaultConcurrency} in flight, +${result.latencyMs} ms per request`,
					each.round === 0 ? 'warm-up' : each.round,
					each.wallMs,
					each.requests,
					each.rows,
					each.cpuSeconds,
					each.error,
				]),
			)
		: '';
	return [
		`## Scheduled export of ${result.rows.toLocaleString('en-US')} new ${result.view} to one CSV (page ${result.pageSize}, bench server, +${result.latencyMs} ms per request)`,
		`Each run in a fresh n8n (own user folder and database, the package loaded in both) with only its workflow active; both run once n8n is idle, ${result.idleLeadSeconds} s after start-up. Every request to the AI API waits ${result.latencyMs} ms in the bench server before its answer (a timer, both contenders alike). Ours: the AI Metadata Trigger (every status, Simplified fields: ${result.columns.join(', ')}; Start From before every row; Max Records per Poll ${result.rows.toLocaleString('en-US')}; a poll every ${result.pollSeconds} s; other options default: Max Concurrent Requests ${result.defaultConcurrency}${result.otherConcurrencies.length ? `, and again at ${result.otherConcurrencies.join(', ')}` : ''}); the bench server withholds the rows while n8n activates the workflow during \`n8n start\` (that first poll finds none) and releases them all ${result.idleLeadSeconds} s after start-up, halfway between two polls; time from the next poll's first GraphQL request to the execution's stoppedAt; "Poll ms" = that request to the execution's startedAt. Built-in: a Schedule Trigger firing once ${result.idleLeadSeconds} s after activation, HTTP Request (v4.2) POSTing the same columns ordered by processed_time, task_id with offset pagination until a page shorter than ${result.pageSize}, Split Out, Convert to File; time = the execution's startedAt to stoppedAt. Both write the CSV to disk (Read/Write Files from Disk); its data rows are counted (quote-aware) and must equal ${result.rows.toLocaleString('en-US')}. Memory and CPU: n8n's process group (n8n + task runners), /proc every 100 ms, between start and end; growth = peak minus the last sample before start. Bench server CPU = the whole bench process (emulator in it, /proc sampler included) over the case, an upper bound. ${result.warmup ? 'A warm-up run of each contender first renders every page the bench server will serve (0 pages rendered in the measured runs means every answer was stored bytes).' : 'No warm-up run.'}`,
		table,
		...(fetchFloorTable ? [fetchFloorTable] : []),
		sideBySide,
		[
			'Targets:',
			`- time ours / built-in: ${verdict(result.timeRatio, 0.5)}`,
			`- peak RSS ours / built-in: ${verdict(result.peakRssRatio, 1)}`,
			...(floor
				? [
						`- time ours / floor (where n8n bounds the flow): ${verdict(result.floorTimeRatio, 1.2)}; peak RSS ours / floor: ${result.floorPeakRssRatio ?? '–'}`,
					]
				: []),
			...(result.fetchFloorMedianMs !== undefined && floor
				? [
						`- fetching the rows alone (fetch floor, median): ${result.fetchFloorMedianMs} ms, ${Math.round((result.fetchFloorMedianMs / floor.medianTotalMs) * 100)} % of the floor (the 1.2x target leaves 20 %); time ours / (floor + fetch floor): ${result.fetchingFloorTimeRatio ?? '–'}`,
					]
				: []),
			...(best
				? [
						`- fastest setting of ours (${best.concurrency === undefined ? 'default' : `${best.concurrency} in flight`}): time ${verdict(best.timeRatio, 0.5)}; peak RSS ${verdict(best.peakRssRatio, 1)}`,
					]
				: []),
		].join('\n'),
	].join('\n\n');
}

function errorsSection(results: BenchResults): string {
	const notes: string[] = [];
	const missing = Object.entries(results.packageBuilt)
		.filter(([, built]) => !built)
		.map(([name]) => name);
	if (missing.length)
		notes.push(`Not built (skipped): ${missing.join(', ')} — run \`npm run build\`.`);
	for (const error of results.errors) notes.push(`${error.section} failed: ${error.message}`);
	return notes.length ? ['## Problems', ...notes.map((note) => `- ${note}`)].join('\n') : '';
}
