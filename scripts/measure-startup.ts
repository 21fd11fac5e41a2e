/**
 * Start-up cost of the package in a real n8n: how long `n8n start` takes until the editor is up, and the main
 * process's resident memory then, with no package, and with each given build of the package (copied into the user
 * folder as an npm install would place it). Figures, not assertions.
 *
 *   node scripts/run-ts.js scripts/measure-startup.ts [--version 2.40.7] [--runs 5] [--bare-only] [label=<package dir> ...]
 *
 * A package dir holds package.json, index.js and dist/ (default: `current=<this repo>`). Each variant gets its own
 * user folder whose first start (database migrations) is not counted; the measured starts then alternate between
 * the variants, round by round, so that drift on the machine spreads over all of them. Also prints, per package
 * dir, what requiring every node and credential file costs in a bare Node process.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { REPO_ROOT } from '../dev/n8n/install';
import { N8nInstance } from '../dev/n8n/n8n';

interface Variant {
	label: string;
	/** undefined: n8n without the package. */
	packageRoot?: string;
}

interface StartSample {
	startMs: number;
	rssMiB: number;
}

interface Settings {
	version: string;
	/** Only the bare-Node require cost, no n8n. */
	bareOnly: boolean;
	runs: number;
	variants: Variant[];
}

function parseArgs(argv: string[]): Settings {
	let version = '2.40.7';
	let runs = 5;
	let bareOnly = false;
	const packages: Variant[] = [];
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--version') version = argv[++index];
		else if (arg === '--runs') runs = Number(argv[++index]);
		else if (arg === '--bare-only') bareOnly = true;
		else if (/^[\w-]+=/.test(arg)) {
			const [label, dir] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)];
			packages.push({ label, packageRoot: path.resolve(dir) });
		} else throw new Error(`unknown argument ${arg}`);
	}
	if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
	if (packages.length === 0) packages.push({ label: 'current', packageRoot: REPO_ROOT });
	for (const { label, packageRoot } of packages) {
		if (!fs.existsSync(path.join(packageRoot ?? '', 'dist')))
			throw new Error(`${label}: no dist/ in ${packageRoot}`);
	}
	return { version, runs, bareOnly, variants: [{ label: 'no package' }, ...packages] };
}

/** The `n8n start` process running in this user folder (not its task runners). */
function serverPid(n8n: N8nInstance): number {
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
			if (args[1] !== n8n.install.n8nBin || args[2] !== 'start') continue;
			if (fs.realpathSync(`/proc/${entry}/cwd`) === fs.realpathSync(n8n.userFolder))
				return Number(entry);
		} catch {
			// The process ended while we looked: not ours.
		}
	}
	throw new Error(`no n8n start process for ${n8n.userFolder}`);
}

function rssMiB(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kiB = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
	return kiB / 1024;
}

async function measureStart(n8n: N8nInstance): Promise<StartSample> {
	const started = performance.now();
	await n8n.start();
	const startMs = performance.now() - started;
	const sample = { startMs, rssMiB: rssMiB(serverPid(n8n)) };
	await n8n.stop();
	return sample;
}

/** Requires every node and credential file of a package dir in a fresh Node process (n8n-workflow already loaded). */
function bareRequireSample(packageRoot: string): { ms: number; heapMiB: number; rssMiB: number } {
	const script = `
		const path = require('node:path');
		const root = ${JSON.stringify(packageRoot)};
		const manifest = require(path.join(root, 'package.json'));
		require('n8n-workflow'); // n8n has loaded it long before any community package
		global.gc();
		const before = process.memoryUsage();
		const started = process.hrtime.bigint();
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) require(path.join(root, file));
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		global.gc();
		const after = process.memoryUsage();
		console.log(JSON.stringify({ ms, heapMiB: (after.heapUsed - before.heapUsed) / 1048576, rssMiB: (after.rss - before.rss) / 1048576 }));
	`;
	// The repo's n8n-workflow stands in for n8n's (the bundles require it).
	const output = execFileSync(process.execPath, ['--expose-gc', '-e', script], {
		encoding: 'utf8',
		env: { ...process.env, NODE_PATH: path.join(REPO_ROOT, 'node_modules') },
	});
	return JSON.parse(output) as { ms: number; heapMiB: number; rssMiB: number };
}

function bareRequireCost(packageRoot: string, runs: number): string {
	const samples = Array.from({ length: runs }, () => bareRequireSample(packageRoot));
	const ms = median(samples.map((sample) => sample.ms));
	const heap = median(samples.map((sample) => sample.heapMiB));
	const rss = median(samples.map((sample) => sample.rssMiB));
	return `${ms.toFixed(0)} ms, heap +${heap.toFixed(1)} MiB, RSS +${rss.toFixed(1)} MiB (medians of ${runs})`;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function summary(samples: StartSample[]): string {
	const starts = samples.map((sample) => sample.startMs);
	const rss = samples.map((sample) => sample.rssMiB);
	return (
		`start ${median(starts).toFixed(0)} ms median (${Math.min(...starts).toFixed(0)} to ${Math.max(...starts).toFixed(0)}), ` +
		`RSS ${median(rss).toFixed(0)} MiB median (${Math.min(...rss).toFixed(0)} to ${Math.max(...rss).toFixed(0)})`
	);
}

async function main(): Promise<void> {
	const settings = parseArgs(process.argv.slice(2));
	for (const { label, packageRoot } of settings.variants) {
		if (packageRoot)
			console.log(`bare require of ${label}: ${bareRequireCost(packageRoot, settings.runs)}`);
	}
	if (settings.bareOnly) return;
	console.log(
		`n8n ${settings.version}, ${settings.runs} measured starts per variant, ${os.cpus().length} cores`,
	);

	const folders: string[] = [];
	const instances: N8nInstance[] = [];
	try {
		for (const variant of settings.variants) {
			const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'measure-startup-'));
			folders.push(userFolder);
			const n8n = await N8nInstance.create({
				version: settings.version,
				userFolder,
				packageMode: variant.packageRoot ? 'copy' : 'none',
				packageRoot: variant.packageRoot,
			});
			instances.push(n8n);
			await n8n.start(); // first start: migrations, not counted
			await n8n.stop();
		}
		const samples: StartSample[][] = settings.variants.map(() => []);
		for (let round = 0; round < settings.runs; round++) {
			for (let index = 0; index < instances.length; index++) {
				const sample = await measureStart(instances[index]);
				samples[index].push(sample);
				console.log(
					`  round ${round + 1} ${settings.variants[index].label}: ${sample.startMs.toFixed(0)} ms, ${sample.rssMiB.toFixed(0)} MiB`,
				);
			}
		}
		for (let index = 0; index < instances.length; index++) {
			console.log(`${settings.variants[index].label}: ${summary(samples[index])}`);
		}
	} finally {
		for (const n8n of instances) await n8n.dispose();
		for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
