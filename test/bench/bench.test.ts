import * as http from 'node:http';

import { Webhook } from 'standardwebhooks';

import { generateSecret } from '../../dev/emulators/webhook/sender';
import { parseRun } from '../../dev/bench/lib/execute';
import {
	GroupMemorySampler,
	groupMembers,
	memoryInWindow,
	processGroupOf,
	processMemory,
} from '../../dev/bench/lib/memory';
import { formatCell, markdownTable, verdict } from '../../dev/bench/lib/report';
import { scheduledExportSection } from '../../dev/bench/lib/results';
import {
	countCsvRecords,
	releaseDelayMs,
	type ExportCase,
} from '../../dev/bench/sections/scheduledExport';
import { combineLoads, runSenderLoad } from '../../dev/bench/lib/senders';
import { percentile, ratio } from '../../dev/bench/lib/stats';
import { eventsInRound } from '../../dev/bench/sections/trigger';

describe('bench statistics', () => {
	it('takes nearest-rank percentiles of unsorted values', () => {
		const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
		expect(percentile(values, 50)).toBe(5);
		expect(percentile(values, 99)).toBe(10);
		expect(percentile(values, 0)).toBe(1);
		expect(percentile([], 50)).toBeNaN();
		expect(() => percentile(values, 101)).toThrow(RangeError);
	});

	it('gives ratios only when both figures exist', () => {
		expect(ratio(1, 4)).toBe(0.25);
		expect(ratio(1, 0)).toBeNaN();
		expect(ratio(Number.NaN, 2)).toBeNaN();
	});

	it('splits events over rounds without losing any', () => {
		const rounds = [0, 1, 2].map((round) => eventsInRound(2000, 3, round));
		expect(rounds).toEqual([667, 667, 666]);
		expect(rounds.reduce((sum, each) => sum + each, 0)).toBe(2000);
	});
});

describe('bench report', () => {
	it('renders a markdown table with escaped pipes and placeholders for missing figures', () => {
		const table = markdownTable(
			['Name', 'Value'],
			[
				['a|b', 1234.5],
				['c', undefined],
				['d', Number.NaN],
			],
		);
		expect(table.split('\n')).toEqual([
			'| Name | Value |',
			'| --- | --- |',
			'| a\\|b | 1,234.5 |',
			'| c | – |',
			'| d | n/a |',
		]);
	});

	it('states whether a target is met', () => {
		expect(verdict(0.4, 0.5)).toBe('0.4 met (target ≤ 0.5)');
		expect(verdict(0.6, 0.5)).toBe('0.6 MISSED (target ≤ 0.5)');
		expect(verdict(undefined, 1)).toBe('n/a (target ≤ 1)');
		expect(formatCell(3)).toBe('3');
	});
});

describe('n8n execute output', () => {
	const run = {
		data: {
			resultData: {
				runData: { A: [{ executionTime: 12, data: { main: [[{ json: { x: 1 } }]] } }] },
			},
		},
	};

	it('finds the run JSON between log lines', () => {
		const output = `Loading nodes\n${JSON.stringify(run, null, 2)}\nshutting down\n`;
		expect(parseRun(output)).toEqual(run);
	});

	it('returns undefined for output cut off mid-run', () => {
		const output = JSON.stringify(run, null, 2);
		expect(parseRun(output.slice(0, output.length - 10))).toBeUndefined();
	});
});

describe('process group memory', () => {
	it('reads this process from /proc and samples its group', () => {
		const group = processGroupOf(process.pid);
		expect(group).toBeGreaterThan(0);
		expect(groupMembers(group as number)).toContain(process.pid);
		const own = processMemory(process.pid);
		expect(own?.rssBytes).toBeGreaterThan(0);
		expect(own?.hwmBytes).toBeGreaterThanOrEqual(own?.rssBytes ?? 0);

		const sampler = new GroupMemorySampler(group as number, 1_000);
		const memory = sampler.stop();
		expect(memory.samples).toBe(1);
		expect(memory.peakGroupRssBytes).toBeGreaterThanOrEqual(own?.rssBytes ?? 0);
		expect(processMemory(2 ** 22 + 1)).toBeUndefined();
	});
});

describe('memory while a node ran', () => {
	const series: Array<[number, number]> = [
		[100, 10],
		[200, 12],
		[300, 50],
		[400, 30],
		[500, 90],
	];

	it('takes the last sample before the window as the start and the largest sample inside it as the peak', () => {
		expect(memoryInWindow(series, 250, 200)).toEqual({ atStartBytes: 12, peakBytes: 50 });
		expect(memoryInWindow(series, 0, 1000)).toEqual({ atStartBytes: 0, peakBytes: 90 });
	});

	it('falls back to the start figure when no sample fell inside a short window', () => {
		expect(memoryInWindow(series, 410, 20)).toEqual({ atStartBytes: 30, peakBytes: 30 });
	});
});

describe('concurrent signed senders', () => {
	let server: http.Server;
	let url: string;
	const secret = generateSecret(32);
	const received: string[] = [];
	// Answers are held until five requests wait: the load only finishes if five senders really overlap.
	const BARRIER = 5;
	let waiting: Array<() => void> = [];
	let maxWaiting = 0;

	beforeAll(async () => {
		const verifier = new Webhook(secret);
		server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const body = Buffer.concat(chunks).toString('utf8');
				const event = JSON.parse(body) as { data: { correlation_id: string } };
				let status = 204;
				try {
					verifier.verify(body, req.headers as Record<string, string>);
					received.push(event.data.correlation_id);
				} catch {
					status = 401;
				}
				// Every 7th event is refused, so error counting is exercised with real answers.
				if (status === 204 && received.length % 7 === 0) status = 503;
				waiting.push(() => res.writeHead(status, { connection: 'close' }).end());
				maxWaiting = Math.max(maxWaiting, waiting.length);
				if (waiting.length < BARRIER) return;
				const release = waiting;
				waiting = [];
				for (const answer of release) answer();
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const address = server.address() as { port: number };
		url = `http://127.0.0.1:${address.port}/hook`;
	});

	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	it('sends every event once, signed, with the requested concurrency, and counts refusals as errors', async () => {
		const result = await runSenderLoad({
			url,
			secrets: [secret],
			events: 70,
			concurrency: 5,
			deadlineMs: 60_000,
		});

		expect(result.sent).toBe(70);
		expect(received).toHaveLength(70);
		expect(new Set(received).size).toBe(70);
		expect(result.statuses).toEqual({ '204': 60, '503': 10 });
		expect(result.errors).toBe(10);
		expect(result.firstError).toBe('HTTP 503: ');
		expect(result.deliveredCorrelationIds).toHaveLength(60);
		expect(result.deliveredCorrelationIds.every((id) => received.includes(id))).toBe(true);
		expect(maxWaiting).toBe(BARRIER);
		expect(result.latenciesMs).toHaveLength(70);
		expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);

		const combined = combineLoads([result, result]);
		expect(combined.sent).toBe(140);
		expect(combined.statuses).toEqual({ '204': 120, '503': 20 });
		expect(combined.p50Ms).toBe(result.p50Ms);
	});
});

describe('scheduled export figures', () => {
	it('counts CSV records, with line breaks and escaped quotes inside quoted fields', () => {
		const csv = 'a,b\n1,"two\nlines"\n2,"say ""hi""\n, and go"\n3,x';
		expect(countCsvRecords(Buffer.from(csv))).toBe(4);
		expect(countCsvRecords(Buffer.from(`${csv}\n`))).toBe(4);
		expect(countCsvRecords(Buffer.alloc(0))).toBe(0);
	});

	it('releases the rows for our trigger at least 8 s after start-up, halfway between two polls', () => {
		const at = (clock: number) => clock + releaseDelayMs(clock);
		expect(at(1_000_000)).toBe(1_012_500);
		expect(at(1_000_000 - 8_000 + 2_500)).toBe(1_002_500);
		expect(at(1_000_000 - 8_000 + 2_501)).toBe(1_007_500);
		for (const clock of [0, 1, 4_999, 123_456_789]) {
			expect(releaseDelayMs(clock)).toBeGreaterThanOrEqual(8_000);
			expect(releaseDelayMs(clock)).toBeLessThan(13_000);
			expect(at(clock) % 5_000).toBe(2_500);
		}
	});

	it('prints every run and the medians side by side with the ratios and targets', () => {
		const run = (
			contender: ExportCase['contender'],
			round: number,
			totalMs: number,
		): ExportCase => ({
			contender,
			label: contender,
			round,
			totalMs,
			executionMs: totalMs,
			peakRssMiB: totalMs / 10,
			rssAtStartMiB: 100,
			growthMiB: totalMs / 10 - 100,
			cpuSeconds: 1,
			csvRows: 10,
			csvMiB: 0.1,
			csvBytes: 100_000,
			graphqlRequests: 1,
			tokenRequests: 1,
			serverCpuSeconds: 0.1,
			serverRenders: 0,
			executions: 1,
		});
		const section = scheduledExportSection({
			rows: 10,
			pageSize: 1000,
			view: 'speech_tasks',
			columns: ['task_id'],
			latencyMs: 50,
			idleLeadSeconds: 8,
			pollSeconds: 5,
			defaultConcurrency: 2,
			otherConcurrencies: [8],
			rounds: 1,
			warmup: true,
			cases: [
				run('ours', 0, 3000),
				run('builtin', 0, 4000),
				run('ours', 1, 2000),
				run('builtin', 1, 4000),
				run('floor', 1, 1600),
			],
			summaries: [
				{
					contender: 'ours',
					label: 'ours',
					rounds: 1,
					medianTotalMs: 2000,
					medianPeakRssMiB: 200,
					medianGrowthMiB: 100,
					csvRows: 10,
				},
				{
					contender: 'ours',
					concurrency: 8,
					label: 'ours at 8',
					rounds: 1,
					medianTotalMs: 1000,
					medianPeakRssMiB: 300,
					medianGrowthMiB: 150,
					csvRows: 10,
				},
				{
					contender: 'builtin',
					label: 'builtin',
					rounds: 1,
					medianTotalMs: 4000,
					medianPeakRssMiB: 400,
					medianGrowthMiB: 300,
					csvRows: 10,
				},
				{
					contender: 'floor',
					label: 'floor',
					rounds: 1,
					medianTotalMs: 1600,
					medianPeakRssMiB: 250,
					medianGrowthMiB: 100,
					csvRows: 10,
				},
			],
			timeRatio: 0.5,
			peakRssRatio: 0.5,
			floorTimeRatio: 1.25,
			floorPeakRssRatio: 0.8,
			bestOurs: { concurrency: 8, timeRatio: 0.25, peakRssRatio: 1.1 },
		});
		expect(section).toContain(
			'## Scheduled export of 10 new speech_tasks to one CSV (page 1000, bench server, +50 ms per request)',
		);
		expect(section).toContain('| ours | warm-up | 3,000 |');
		expect(section).toContain('| builtin | 1 | 4,000 |');
		expect(section).toContain('| Ratio ours / built-in | 0.5 | 0.5 | 0.33 |');
		expect(section).toContain('time ours / built-in: 0.5 met (target ≤ 0.5)');
		expect(section).toContain('peak RSS ours / built-in: 0.5 met (target ≤ 1)');
		expect(section).toContain('| floor | 1 | 1,600 |');
		expect(section).toContain('| Ratio ours / floor | 1.25 | 0.8 | 1 |');
		expect(section).toContain(
			'time ours / floor (where n8n bounds the flow): 1.25 MISSED (target ≤ 1.2); peak RSS ours / floor: 0.8',
		);
		expect(section).toContain('other options default: Max Concurrent Requests 2, and again at 8)');
		expect(section).toContain('| Ratio ours (8 in flight) / built-in | 0.25 | 0.75 | 0.5 |');
		expect(section).toContain(
			'fastest setting of ours (8 in flight): time 0.25 met (target ≤ 0.5); peak RSS 1.1 MISSED (target ≤ 1)',
		);
	});
});
