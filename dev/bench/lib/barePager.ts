import * as path from 'node:path';

import * as esbuild from 'esbuild';

import { REPO_ROOT } from '../../n8n/install';
import { runGroup } from '../../n8n/processes';

/** What dev/bench/fetchLoop.ts prints: the bare client's figures, measured inside its own process. */
export interface BareFigures {
	rows: number;
	requests: number;
	bytes: number;
	wallMs: number;
	cpuSeconds: number;
	startRssBytes: number;
	peakRssBytes: number;
}

export type BareRun = { figures: BareFigures } | { error: string };

/**
 * Runs the bare client (dev/bench/fetchLoop.ts) in a process of its own under `nodeBin` (n8n's Node, so both sides
 * run the same runtime), with the token in BENCH_TOKEN, and reads the JSON line it prints.
 */
export async function runBarePager(
	nodeBin: string,
	args: string[],
	token: string,
): Promise<BareRun> {
	const result = await runGroup(nodeBin, [bundleFetchLoop(), ...args], {
		env: { PATH: process.env.PATH, BENCH_TOKEN: token },
		timeoutMs: 300_000,
	});
	const line = result.stdout.trim().split('\n').at(-1) ?? '';
	if (result.code !== 0 || !line.startsWith('{'))
		return { error: result.stderr.trim().slice(0, 300) || `exit ${result.code}` };
	return { figures: JSON.parse(line) as BareFigures };
}

let bundled: string | undefined;

/** Bundled beforehand, so the bundler is not in the bare client's memory. */
function bundleFetchLoop(): string {
	if (bundled) return bundled;
	const outfile = path.join(REPO_ROOT, '.build', 'dev', 'bench', 'fetchLoop.js');
	esbuild.buildSync({
		entryPoints: [path.join(REPO_ROOT, 'dev', 'bench', 'fetchLoop.ts')],
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		outfile,
		logLevel: 'warning',
	});
	bundled = outfile;
	return outfile;
}
