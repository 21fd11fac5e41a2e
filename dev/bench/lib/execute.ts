import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { N8nInstance } from '../../n8n/n8n';
import { parseRawOutput, type CliRun, type NodeRun } from '../../n8n/run-data';
import {
	cpuInWindow,
	GroupMemorySampler,
	memoryInWindow,
	type GroupMemory,
	type WindowMemory,
} from './memory';

/** Bound on one `n8n execute` of a benchmark workflow (100,000 rows included). */
const EXECUTE_TIMEOUT_MS = 300_000;

export interface NodeTiming {
	/** n8n's own figure: `executionTime` of the node's first run, in ms. */
	executionTimeMs: number;
	/** Items on all outputs of that run. */
	items: number;
	/** Group memory while the node ran (sampled; see memoryInWindow). */
	memory: WindowMemory;
	/** CPU seconds (user + sys) of the whole process group while the node ran (see cpuInWindow). */
	cpuSeconds: number;
	error?: string;
}

export interface MeasuredExecution<Checks = Record<string, never>> {
	/** Spawn to exit of the whole `n8n execute` process (start-up, run, printing the run data). */
	processWallMs: number;
	/** stoppedAt - startedAt of the execution as n8n reports it. */
	executionMs: number;
	nodes: Record<string, NodeTiming>;
	memory: GroupMemory;
	succeeded: boolean;
	error?: string;
	/** What `inspect` read from the run before it was dropped. */
	checks: Checks;
}

/**
 * Runs an imported workflow once in its own `n8n execute --rawOutput` process while sampling that process
 * group's memory, and keeps only the figures (the run data of 100,000 items is dropped right away).
 */
export async function executeMeasured<Checks = Record<string, never>>(
	n8n: N8nInstance,
	workflowId: string,
	inspect: (run: CliRun) => Checks = () => ({}) as Checks,
	timeoutMs = EXECUTE_TIMEOUT_MS,
): Promise<MeasuredExecution<Checks>> {
	const outputFile = path.join(n8n.userFolder, `bench-run-${randomBytes(6).toString('hex')}.json`);
	try {
		const started = process.hrtime.bigint();
		const { code, stderr, memory } = await runToFile(
			n8n,
			['execute', `--id=${workflowId}`, '--rawOutput'],
			outputFile,
			timeoutMs,
		);
		const processWallMs = elapsedMs(started);
		const stdout = fs.readFileSync(outputFile, 'utf8');
		const run = parseRun(stdout);
		if (!run) {
			const tail = n8n.redact(`${stdout.slice(-2_000)}${stderr.slice(-2_000)}`);
			throw new Error(`n8n execute --id=${workflowId} printed no run (exit ${code}):\n${tail}`);
		}
		const error = run.data.resultData.error?.message;
		return {
			processWallMs,
			executionMs: executionSpan(run),
			nodes: nodeTimings(run, memory),
			memory,
			succeeded: code === 0 && error === undefined,
			...(error === undefined ? {} : { error: n8n.redact(error) }),
			checks: inspect(run),
		};
	} finally {
		fs.rmSync(outputFile, { force: true });
	}
}

interface FileRun {
	code: number | null;
	stderr: string;
	memory: GroupMemory;
}

/**
 * Runs `n8n <args>` in its own process group with stdout going to a file: n8n exits right after printing the
 * run, and a pipe would lose whatever was not yet flushed (the run of 100,000 items is about 100 MB).
 */
async function runToFile(
	n8n: N8nInstance,
	args: string[],
	outputFile: string,
	timeoutMs = EXECUTE_TIMEOUT_MS,
): Promise<FileRun> {
	const stdoutFd = fs.openSync(outputFile, 'w', 0o600);
	let child: ChildProcess;
	try {
		child = spawn(n8n.install.nodeBin, [n8n.install.n8nBin, ...args], {
			cwd: n8n.userFolder,
			env: n8n.env(),
			detached: true,
			stdio: ['ignore', stdoutFd, 'pipe'],
		});
	} finally {
		fs.closeSync(stdoutFd);
	}
	const groupId = child.pid as number;
	const killGroup = () => signalGroup(groupId, 'SIGKILL');
	// A benchmark interrupted mid-run must not leave n8n behind.
	process.once('exit', killGroup);
	const sampler = new GroupMemorySampler(groupId);
	const stderrChunks: string[] = [];
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderrChunks.push(chunk));
	const timer = setTimeout(killGroup, timeoutMs);
	try {
		const code = await new Promise<number | null>((resolve, reject) => {
			child.once('error', reject);
			child.once('close', (exitCode) => resolve(exitCode));
		});
		return { code, stderr: stderrChunks.join(''), memory: sampler.stop() };
	} finally {
		sampler.stop();
		clearTimeout(timer);
		// Task runners the leader left behind go with it.
		killGroup();
		process.removeListener('exit', killGroup);
	}
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-groupId, signal);
	} catch {
		// Already gone.
	}
}

function elapsedMs(started: bigint): number {
	return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The run JSON spans from a line `{` to the last line `}`; a direct slice avoids splitting 100 MB into lines. */
export function parseRun(stdout: string): CliRun | undefined {
	const start = /^\{$/m.exec(stdout)?.index;
	const end = stdout.lastIndexOf('\n}');
	if (start !== undefined && end > start) {
		try {
			const candidate = JSON.parse(stdout.slice(start, end + 2)) as CliRun;
			if (candidate?.data?.resultData) return candidate;
		} catch {
			// Log lines after the JSON: fall back to the harness's line-wise search.
		}
	}
	return parseRawOutput(stdout);
}

function executionSpan(run: CliRun): number {
	if (!run.startedAt || !run.stoppedAt) return Number.NaN;
	return Date.parse(run.stoppedAt) - Date.parse(run.startedAt);
}

function nodeTimings(run: CliRun, memory: GroupMemory): Record<string, NodeTiming> {
	const timings: Record<string, NodeTiming> = {};
	for (const [name, runs] of Object.entries(run.data.resultData.runData)) {
		const first: NodeRun | undefined = runs[0];
		if (!first) continue;
		const items = (first.data?.main ?? []).reduce((sum, output) => sum + (output?.length ?? 0), 0);
		const executionTimeMs = first.executionTime ?? Number.NaN;
		const window = Number.isFinite(executionTimeMs) ? executionTimeMs : 0;
		timings[name] = {
			executionTimeMs,
			items,
			memory: memoryInWindow(memory.series, first.startTime ?? 0, window),
			cpuSeconds: cpuInWindow(memory.cpuSeries, first.startTime ?? 0, window),
			...(first.error ? { error: first.error.message ?? 'error' } : {}),
		};
	}
	return timings;
}
