/**
 * `node scripts/run-ts.js dev/bench/forgedSignatures.ts [--cpu-requests 300 --benign 400 --forgers 20 --rate 0]`
 * (`--rate N`: N forged requests per second over all forgers, paced; 0 = as fast as answered)
 *
 * Issue 12 finding 1: what forged signature headers cost the SIP Status Trigger. The trigger runs in its own
 * process behind the webhook harness (dev/harness/webhook.ts: the node's real `webhook()` in n8n-core's
 * WebhookContext, over real HTTP on loopback), not in n8n: n8n's own work per request is the same for every
 * request and would only dilute the figures.
 *
 * 1. Handler CPU per request (process.cpuUsage around `webhook()`, one request at a time): valid deliveries and
 *    worst-case forgeries - the 16,000-comma header of the report, the worst header the limits let through
 *    (10 well-formed v1 entries, fresh timestamp, so the signature is computed and compared), and forgeries
 *    whose timestamp is fresh so that a credential re-read is allowed (once per 5 s).
 * 2. p99 of benign (validly signed) deliveries sent one at a time, without and then with `--forgers` concurrent
 *    senders of such forgeries (in a third process, so neither client slows the other's measurement), and with as
 *    many senders of unsigned requests (the cheapest 401) as the control: closed-loop senders saturate the
 *    trigger's event loop whatever they send, so forgers / control is what the forgeries themselves add.
 * Figures, not assertions. Targets: forged CPU under 1 ms; p99 with forgers within 1.2x of without.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

import { timedSipTrigger } from './lib/handlerCpu';
import { acceptedIds } from '../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';
import { generateSecret } from '../emulators/webhook/sender';
import { postRaw, startWebhookHarness } from '../harness/webhook';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE_NAME,
	signedHeaders,
	sipEventBody,
} from '../emulators/webhook/fixtures';
import { percentile, ratio, round } from './lib/stats';

export type RequestKind = 'valid' | 'commas16k' | 'tenEntries' | 'malformed' | 'unsigned';

export interface ForgedSignatureOptions {
	cpuRequests: number;
	benign: number;
	forgers: number;
	/** Forged requests per second over all forgers, paced (open loop); 0 = each forger sends as fast as answered. */
	forgeryRate?: number;
}

export interface ForgedSignatureResults {
	/** Median handler CPU per request, in microseconds, by kind. */
	cpuMicrosPerRequest: Record<RequestKind, number>;
	cpuMeanMicrosPerRequest: Record<RequestKind, number>;
	statuses: Record<RequestKind, Record<string, number>>;
	benignP99Ms: {
		withoutForgers: number;
		withForgers: number;
		ratio: number;
		withControlSenders: number;
		forgersOverControl: number;
	};
	benignP50Ms: { withoutForgers: number; withForgers: number };
	forgeriesSent: number;
	/** Requests the control senders sent: as many senders, each sending unsigned requests (the cheapest 401). */
	controlSent: number;
	/** Credential reads by the trigger over the whole run (forged requests may cause one per 5 s). */
	credentialReads: number;
	/** Credential reads while the forgers ran, and how long that was: at most one read per 5 s may be caused. */
	forgeryPhase: { credentialReads: number; durationMs: number };
}

const SCRIPT = path.join('dev', 'bench', 'forgedSignatures.ts');

/** A request of each kind, with a fresh timestamp and id. */
export function requestOf(
	kind: RequestKind,
	secret: string,
): { body: string; headers: Record<string, string> } {
	const body = sipEventBody();
	const id = `msg_${randomBytes(12).toString('hex')}`;
	const now = Math.floor(Date.now() / 1000);
	const headers = signedHeaders(secret, id, now, body);
	if (kind === 'commas16k') headers['webhook-signature'] = ','.repeat(16_000);
	if (kind === 'tenEntries') {
		headers['webhook-signature'] = Array.from(
			{ length: 10 },
			() => `v1,${randomBytes(32).toString('base64')}`,
		).join(' ');
	}
	if (kind === 'malformed') headers['webhook-signature'] = `v1,${'A'.repeat(4000)}`;
	// The cheapest request the trigger can get: no webhook headers at all, refused before anything is read.
	if (kind === 'unsigned') return { body, headers: { 'content-type': headers['content-type'] } };
	return { body, headers };
}

// ---- the trigger's process ---------------------------------------------------------------------------------

interface ServerMessage {
	cmd: 'cpu' | 'reset' | 'reads';
}

async function serve(): Promise<void> {
	const secret = process.env.BENCH_SIP_SECRET!;
	const timed = timedSipTrigger();
	// A process that started long ago: past the refusal that follows a start.
	acceptedIds.reset(0);
	let cpuMicros: number[] = [];
	const harness = await startWebhookHarness(timed.node, {
		nodeTypeName: NODE_TYPE_NAME,
		workflowId: 'bench-forged-signatures',
		credentials: { [CREDENTIAL_TYPE]: { signingSecret: secret } },
		mode: 'webhook',
	});
	process.on('message', (message: ServerMessage) => {
		cpuMicros.push(...timed.take());
		if (message.cmd === 'reset') cpuMicros = [];
		process.send!({ cmd: message.cmd, cpuMicros, reads: harness.credentialReads() });
	});
	process.send!({ cmd: 'ready', url: harness.url });
}

// ---- the forgers' process ----------------------------------------------------------------------------------

async function forge(
	url: string,
	senders: number,
	secret: string,
	control: boolean,
	rate: number,
): Promise<void> {
	const pauseMs = rate > 0 ? (senders * 1000) / rate : 0;
	let sent = 0;
	let stopping = false;
	process.on('message', () => {
		stopping = true;
	});
	const kinds: RequestKind[] = control ? ['unsigned'] : ['commas16k', 'tenEntries'];
	await Promise.all(
		Array.from({ length: senders }, async (_unused, sender) => {
			while (!stopping) {
				const { body, headers } = requestOf(kinds[(sender + sent) % kinds.length], secret);
				const started = Date.now();
				await postRaw(url, body, headers).catch(() => undefined);
				sent++;
				if (pauseMs > 0)
					await new Promise((resolve) =>
						setTimeout(resolve, Math.max(0, pauseMs - (Date.now() - started))),
					);
			}
		}),
	);
	process.send!({ cmd: 'done', sent }, () => process.exit(0));
}

// ---- the driver --------------------------------------------------------------------------------------------

/** The repository root, whether this runs from the bundle in .build or from the source under jest. */
function repositoryRoot(): string {
	let dir = __dirname;
	while (!existsSync(path.join(dir, 'scripts', 'run-ts.js'))) {
		const parent = path.dirname(dir);
		if (parent === dir) throw new Error('scripts/run-ts.js not found above this file');
		dir = parent;
	}
	return dir;
}

function child(args: string[], secret: string): ChildProcess {
	const root = repositoryRoot();
	return fork(path.join(root, 'scripts', 'run-ts.js'), [SCRIPT, ...args], {
		cwd: root,
		env: { ...process.env, BENCH_SIP_SECRET: secret },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
}

async function nextMessage<T>(process: ChildProcess): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		process.once('message', (message) => resolve(message as T));
		process.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
	});
}

async function ask(
	server: ChildProcess,
	cmd: ServerMessage['cmd'],
): Promise<{ cpuMicros: number[]; reads: number }> {
	const answer = nextMessage<{ cpuMicros: number[]; reads: number }>(server);
	server.send({ cmd });
	return await answer;
}

async function sendSequentially(
	url: string,
	kind: RequestKind,
	count: number,
	secret: string,
): Promise<{ latenciesMs: number[]; statuses: Record<string, number> }> {
	const latenciesMs: number[] = [];
	const statuses: Record<string, number> = {};
	for (let index = 0; index < count; index++) {
		const { body, headers } = requestOf(kind, secret);
		const started = process.hrtime.bigint();
		const answer = await postRaw(url, body, headers);
		latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
		statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
	}
	return { latenciesMs, statuses };
}

export async function runForgedSignatureBench(
	options: ForgedSignatureOptions,
	log: (line: string) => void = () => undefined,
): Promise<ForgedSignatureResults> {
	const secret = generateSecret(32);
	const server = child(['--serve'], secret);
	try {
		const { url } = await nextMessage<{ url: string }>(server);
		const kinds: RequestKind[] = ['valid', 'commas16k', 'tenEntries', 'malformed'];
		const cpuMicrosPerRequest = {} as Record<RequestKind, number>;
		const cpuMeanMicrosPerRequest = {} as Record<RequestKind, number>;
		const statuses = {} as Record<RequestKind, Record<string, number>>;
		await sendSequentially(url, 'valid', Math.min(50, options.cpuRequests), secret);
		for (const kind of kinds) {
			await ask(server, 'reset');
			const sent = await sendSequentially(url, kind, options.cpuRequests, secret);
			const { cpuMicros } = await ask(server, 'cpu');
			// The median: process.cpuUsage counts every thread of the process (GC, compiler), which spikes now and then.
			cpuMicrosPerRequest[kind] = round(percentile(cpuMicros, 50), 0);
			cpuMeanMicrosPerRequest[kind] = round(
				cpuMicros.reduce((sum, each) => sum + each, 0) / cpuMicros.length,
				0,
			);
			statuses[kind] = sent.statuses;
			log(
				`handler CPU per ${kind} request: median ${cpuMicrosPerRequest[kind]} µs, mean ${cpuMeanMicrosPerRequest[kind]} µs (${JSON.stringify(sent.statuses)})`,
			);
		}

		const quiet = await sendSequentially(url, 'valid', options.benign, secret);
		const underLoad = async (
			control: boolean,
		): Promise<{ latenciesMs: number[]; sent: number }> => {
			const senders = child(
				[
					'--forge',
					url,
					String(options.forgers),
					control ? 'control' : 'forged',
					String(options.forgeryRate ?? 0),
				],
				secret,
			);
			// Let the senders reach full speed (their bundle builds first).
			await new Promise((resolve) => setTimeout(resolve, 1500));
			const loaded = await sendSequentially(url, 'valid', options.benign, secret);
			const done = nextMessage<{ sent: number }>(senders);
			senders.send({ cmd: 'stop' });
			return { latenciesMs: loaded.latenciesMs, sent: (await done).sent };
		};
		// The control: as many senders flooding the trigger with the cheapest request there is. Closed-loop senders
		// saturate the trigger's event loop whatever they send, so the forgeries' own cost is their p99 over this one.
		const control = await underLoad(true);
		const readsBeforeForgeries = (await ask(server, 'reads')).reads;
		const forgeryPhaseStart = performance.now();
		const forged = await underLoad(false);
		const forgeryPhaseMs = performance.now() - forgeryPhaseStart;
		const readsDuringForgeries = (await ask(server, 'reads')).reads - readsBeforeForgeries;
		const loaded = { latenciesMs: forged.latenciesMs };
		const forgeriesSent = forged.sent;
		const { reads } = await ask(server, 'reads');
		const withoutForgers = round(percentile(quiet.latenciesMs, 99), 2);
		const withForgers = round(percentile(loaded.latenciesMs, 99), 2);
		const withControlSenders = round(percentile(control.latenciesMs, 99), 2);
		return {
			cpuMicrosPerRequest,
			cpuMeanMicrosPerRequest,
			statuses,
			benignP99Ms: {
				withoutForgers,
				withForgers,
				ratio: ratio(withForgers, withoutForgers),
				withControlSenders,
				forgersOverControl: ratio(withForgers, withControlSenders),
			},
			benignP50Ms: {
				withoutForgers: round(percentile(quiet.latenciesMs, 50), 2),
				withForgers: round(percentile(loaded.latenciesMs, 50), 2),
			},
			forgeriesSent,
			controlSent: control.sent,
			credentialReads: reads,
			forgeryPhase: { credentialReads: readsDuringForgeries, durationMs: round(forgeryPhaseMs, 0) },
		};
	} finally {
		server.kill();
	}
}

function parseFlags(argv: string[]): ForgedSignatureOptions {
	const flags = new Map<string, number>();
	for (let index = 0; index < argv.length; index += 2)
		flags.set(argv[index].replace(/^--/, ''), Number(argv[index + 1]));
	return {
		cpuRequests: flags.get('cpu-requests') ?? 300,
		benign: flags.get('benign') ?? 400,
		forgers: flags.get('forgers') ?? 20,
		forgeryRate: flags.get('rate') ?? 0,
	};
}

async function main(argv: string[]): Promise<void> {
	if (argv[0] === '--serve') return await serve();
	const secret = process.env.BENCH_SIP_SECRET ?? '';
	if (argv[0] === '--forge')
		return await forge(argv[1], Number(argv[2]), secret, argv[3] === 'control', Number(argv[4]));
	const options = parseFlags(argv);
	const results = await runForgedSignatureBench(options, (line) =>
		process.stderr.write(`${line}\n`),
	);
	process.stdout.write(`${JSON.stringify({ options, ...results }, null, 2)}\n`);
	const { cpuMicrosPerRequest: cpu, benignP99Ms: p99 } = results;
	const worstForged = Math.max(cpu.commas16k, cpu.tenEntries, cpu.malformed);
	process.stdout.write(
		`worst forged request: ${worstForged} µs of handler CPU (target < 1000; a valid delivery: ${cpu.valid} µs)\n` +
			`benign p99: ${p99.withoutForgers} ms alone, ${p99.withForgers} ms with ${options.forgers} forgers${options.forgeryRate ? ` (${options.forgeryRate}/s in all)` : ' (flat out)'}: ratio ${p99.ratio} (target <= 1.2)\n` +
			`benign p99 with ${options.forgers} senders of unsigned requests (the cheapest 401; the floor under that load): ${p99.withControlSenders} ms; forgers / control: ${p99.forgersOverControl}\n` +
			`requests the senders got answered while the benign ones were measured: ${results.forgeriesSent} forgeries, ${results.controlSent} unsigned\n`,
	);
}

// run-ts.js runs the bundle with process.argv[1] set to it; under jest this file is only imported.
if (process.argv[1]?.endsWith(path.join('bench', 'forgedSignatures.js'))) {
	main(process.argv.slice(2)).catch((error: unknown) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exitCode = 1;
	});
}
