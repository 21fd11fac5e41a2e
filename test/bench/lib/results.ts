import type { GetByPidResult } from '../sections/getByPid';
import type { ReturnAllResult } from '../sections/returnAll';
import type { TokenRun } from '../sections/tokens';
import type { TriggerResult } from '../sections/trigger';
import { markdownTable, verdict } from './report';

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
	packageBuilt: { ai: boolean; org: boolean; sip: boolean };
	returnAll?: ReturnAllResult;
	getByPid?: GetByPidResult;
	tokensCli?: TokenRun;
	tokensServer?: TokenRun;
	trigger?: TriggerResult;
	errors: Array<{ section: string; message: string }>;
	totalSeconds?: number;
}

const METHOD = [
	'Method:',
	"- Node time = n8n's own `executionTime` of the node in the run data (`n8n execute --rawOutput`); execution = stoppedAt - startedAt; process = spawn to exit of `n8n execute` (start-up and printing the run data included).",
	'- Memory: every case runs in its own `n8n execute` process group (n8n + task runners); /proc is sampled every 100 ms. "During node" = the largest summed VmRSS of the group between the node\'s startTime and startTime + executionTime, and its growth over the last sample before the node started. "Process peak" = the largest summed VmRSS over the whole process (n8n serialising the run for printing included); "above baseline" subtracts the same figure for a bare Manual Trigger -> NoOp execution. The fetch loop reports its own maxRSS and its RSS at start.',
	'- Requests and token requests are counted by the emulators (server side).',
	"- Trigger latency = request sent to response received at the sender (a fresh connection per delivery, as the emulator's sender does, 15 s timeout), after a warm-up; both workflows are active in the same running n8n and get the events in alternating rounds.",
].join('\n');

export function renderResults(results: BenchResults): string {
	const parts = [
		`# Benchmarks (n8n ${results.n8nVersion}, ${results.generatedAt})`,
		`Machine: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.memoryGiB} GiB; n8n on Node ${results.machine.n8nNode}, bench on Node ${results.machine.benchNode}. Load average at start ${results.machine.loadAverageAtStart.join(' / ')}, at end ${results.machine.loadAverageAtEnd?.join(' / ') ?? '?'}. Total ${results.totalSeconds ?? '?'} s.`,
		METHOD,
		results.returnAll ? returnAllSection(results.returnAll) : '',
		results.tokensServer || results.tokensCli
			? tokensSection(results.tokensServer, results.tokensCli)
			: '',
		results.getByPid ? getByPidSection(results.getByPid) : '',
		results.trigger ? triggerSection(results.trigger) : '',
		errorsSection(results),
	];
	return `${parts.filter(Boolean).join('\n\n')}\n`;
}

function returnAllSection(result: ReturnAllResult): string {
	const table = markdownTable(
		[
			'Scenario',
			'Contender',
			'Rows',
			'Node time ms',
			'Split Out ms',
			'Execution ms',
			'Process ms',
			'Peak RSS during node MiB',
			'Growth during node MiB',
			'Process peak RSS MiB',
			'Above baseline MiB',
			'Requests',
			'Error',
		],
		result.cases.map((each) => [
			each.scenario,
			each.contender,
			each.rows,
			each.nodeMs,
			each.splitMs,
			each.executionMs,
			each.processWallMs,
			each.nodePeakRssMiB,
			each.nodeGrowthMiB,
			each.peakGroupRssMiB,
			each.peakAboveBaselineMiB,
			each.graphqlRequests,
			each.error,
		]),
	);
	const ratios = Object.entries(result.oursOverHttp).map(
		([scenario, value]) => `${scenario}: ${verdict(value, 0.5)}`,
	);
	return [
		`## Return All of ${result.rows.toLocaleString('en-US')} face tasks`,
		table,
		`Baseline (bare \`n8n execute\`): ${result.baseline.processWallMs} ms, peak RSS ${result.baseline.peakGroupRssMiB} MiB. "Process" figures include n8n printing the whole run (about 100 MB of JSON) after the node finished; compare nodes by "Node time" and "during node".`,
		`Our node's time / HTTP Request node's time: ${ratios.join('; ') || 'n/a'}.`,
	].join('\n\n');
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

function triggerSection(result: TriggerResult): string {
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
		]),
	);
	const errors = result.cases.flatMap((each) =>
		each.firstError ? [`${each.contender}: ${each.firstError}`] : [],
	);
	return [
		'## Trigger under concurrent senders',
		table,
		`Warm-up: ${result.warmupEvents} events per workflow first (in the execution counts, not in the latencies); then ${result.rounds} rounds alternating between the workflows.`,
		`Our p50 / Webhook p50: ${verdict(result.p50Ratio, 1.2)}. Our p99 / Webhook p99: ${verdict(result.p99Ratio, 1.2)}. Our mean / Webhook mean: ${result.meanRatio ?? '–'} (each sender waits for its answer, so mean latency = senders / events per second).`,
		...(errors.length ? [`First errors: ${errors.join('; ')}`] : []),
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
