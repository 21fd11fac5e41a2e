/**
 * `node scripts/run-ts.js dev/bench/replayRecord.ts [--sizes 0,1000,10000,100000 --deliveries 2000]`
 *
 * Issue 23: what the SIP Status Trigger's replay record costs per delivery as it fills. The node's real `webhook()`
 * runs in n8n-core's WebhookContext behind the webhook harness (dev/harness/webhook.ts, real HTTP on loopback), one
 * request at a time; process.cpuUsage is taken around `webhook()` only. Before each size the process's record
 * (replay/acceptedIds.ts) is filled with that many keys of the real shape (the key of a `fill-N` id under the test
 * secret), then measured with:
 * - verified deliveries of new ids (each is recorded: the record grows by `--deliveries` during the row);
 * - replays of an accepted id (answered 204 from the record);
 * - forgeries (fresh timestamp, wrong signature: the signature is computed and compared, then refused).
 * Beside them, the floor: the `standardwebhooks` library verifying the same signed delivery (what any verifying
 * receiver needs, without HTTP or n8n). Memory: heap per recorded id, measured over the fill of the largest size.
 * Peers in real n8n (p50 and p99 beside n8n's Webhook node) come from `npm run bench -- --only trigger`.
 * Figures, not assertions. Targets: verified at most 1 ms (median) and at most 2x its value at an empty record;
 * forged under 1 ms whatever the record holds.
 */
import * as path from 'node:path';

import { Webhook } from 'standardwebhooks';

import {
	acceptedIds,
	recordKey,
	secretFingerprint,
} from '../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';
import { generateSecret } from '../emulators/webhook/sender';
import { postRaw, startWebhookHarness } from '../harness/webhook';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE_NAME,
	signedHeaders,
	sipEventBody,
} from '../emulators/webhook/fixtures';
import { timedSipTrigger } from './lib/handlerCpu';
import { percentile, round } from './lib/stats';

export interface ReplayRecordOptions {
	sizes: number[];
	deliveries: number;
}

export interface ReplayRecordRow {
	/** Ids in the record when the row started. */
	recorded: number;
	/** Median handler CPU per request, microseconds. */
	verifiedMicros: number;
	replayMicros: number;
	forgedMicros: number;
	/** The library alone verifying one signed delivery, microseconds (median). */
	floorMicros: number;
	/** Statuses seen, per kind: proves each request did what its kind says. */
	statuses: Record<'verified' | 'replay' | 'forged', Record<string, number>>;
}

export interface ReplayRecordResult {
	rows: ReplayRecordRow[];
	/** Heap bytes per recorded id over the fill of the largest size (undefined without --expose-gc). */
	heapBytesPerId?: number;
}

let serial = 0;
const nextId = (kind: string) => `msg_bench_${kind}_${++serial}`;

function tally(statuses: Record<string, number>, status: number): void {
	statuses[status] = (statuses[status] ?? 0) + 1;
}

function medianFloorMicros(secret: string, count: number): number {
	const verifier = new Webhook(secret);
	const body = sipEventBody();
	const micros: number[] = [];
	for (let index = 0; index < count; index++) {
		const headers = signedHeaders(secret, nextId('floor'), Math.floor(Date.now() / 1000), body);
		const before = process.cpuUsage();
		verifier.verify(body, headers);
		const used = process.cpuUsage(before);
		micros.push(used.user + used.system);
	}
	return percentile(micros, 50);
}

function fill(target: number, fingerprint: string): void {
	for (let index = acceptedIds.size; index < target; index++)
		acceptedIds.add(recordKey(fingerprint, `fill-${index}`));
}

export async function runReplayRecordBench(
	options: ReplayRecordOptions,
): Promise<ReplayRecordResult> {
	const secret = generateSecret(32);
	const forger = generateSecret(32);
	const fingerprint = secretFingerprint(Buffer.from(secret.slice('whsec_'.length), 'base64'));
	const timed = timedSipTrigger();
	const harness = await startWebhookHarness(timed.node, {
		nodeTypeName: NODE_TYPE_NAME,
		workflowId: 'bench-replay-record',
		credentials: { [CREDENTIAL_TYPE]: { signingSecret: secret } },
		mode: 'webhook',
	});
	const body = sipEventBody();
	const send = async (id: string, signWith = secret) =>
		await postRaw(
			harness.url,
			body,
			signedHeaders(signWith, id, Math.floor(Date.now() / 1000), body),
		);
	const measure = async (kind: 'verified' | 'replay' | 'forged', replayedId: string) => {
		const statuses: Record<string, number> = {};
		timed.take();
		for (let index = 0; index < options.deliveries; index++) {
			const id = kind === 'replay' ? replayedId : nextId(kind);
			tally(statuses, (await send(id, kind === 'forged' ? forger : secret)).status);
		}
		return { micros: percentile(timed.take(), 50), statuses };
	};
	try {
		// A process that started long ago: past the refusal that follows a start.
		acceptedIds.reset(0);
		// Warm-up: the credential read, JIT.
		for (let index = 0; index < 500; index++) await send(nextId('warmup'));
		acceptedIds.reset(acceptedIds.startedAtMs);
		const gc = (globalThis as { gc?: () => void }).gc;
		const rows: ReplayRecordRow[] = [];
		let heapBytesPerId: number | undefined;
		const sizes = [...options.sizes].sort((left, right) => left - right);
		for (const size of sizes) {
			const before = acceptedIds.size;
			gc?.();
			const heapBefore = process.memoryUsage().heapUsed;
			fill(size, fingerprint);
			if (gc && size === sizes.at(-1) && size - before > 0) {
				gc();
				heapBytesPerId = round((process.memoryUsage().heapUsed - heapBefore) / (size - before), 0);
			}
			const recorded = acceptedIds.size;
			const replayedId = nextId('replayed');
			await send(replayedId);
			const verified = await measure('verified', replayedId);
			const replay = await measure('replay', replayedId);
			const forged = await measure('forged', replayedId);
			rows.push({
				recorded,
				verifiedMicros: round(verified.micros, 0),
				replayMicros: round(replay.micros, 0),
				forgedMicros: round(forged.micros, 0),
				floorMicros: round(medianFloorMicros(secret, options.deliveries), 0),
				statuses: {
					verified: verified.statuses,
					replay: replay.statuses,
					forged: forged.statuses,
				},
			});
		}
		return { rows, heapBytesPerId };
	} finally {
		await harness.close();
	}
}

function render(result: ReplayRecordResult, deliveries: number): string {
	const lines = [
		`## SIP Status Trigger: replay record cost per delivery (${deliveries} requests per kind, one at a time)`,
		'',
		'| ids recorded | verified new id, µs | replay of an accepted id, µs | forged, µs | floor: standardwebhooks verify, µs | verified / floor | verified / verified at the smallest size |',
		'| --- | --- | --- | --- | --- | --- | --- |',
	];
	const first = result.rows[0];
	for (const row of result.rows) {
		lines.push(
			`| ${row.recorded.toLocaleString('en')} | ${row.verifiedMicros} | ${row.replayMicros} | ${row.forgedMicros} | ${row.floorMicros} | ${round(row.verifiedMicros / row.floorMicros, 2)} | ${round(row.verifiedMicros / first.verifiedMicros, 2)} |`,
		);
	}
	lines.push('');
	lines.push(
		result.heapBytesPerId === undefined
			? 'Heap per recorded id: run with node --expose-gc to measure.'
			: `Heap per recorded id: ${result.heapBytesPerId} bytes.`,
	);
	lines.push(
		`Statuses: ${result.rows.map((row) => `${row.recorded}: ${JSON.stringify(row.statuses)}`).join('; ')}`,
	);
	return lines.join('\n');
}

function parseArgs(argv: string[]): ReplayRecordOptions {
	const flags = new Map<string, string>();
	for (let index = 0; index < argv.length; index += 2)
		flags.set(argv[index].replace(/^--/, ''), argv[index + 1]);
	const sizes = (flags.get('sizes') ?? '0,1000,10000,100000').split(',').map(Number);
	const deliveries = Number(flags.get('deliveries') ?? 2000);
	if (
		sizes.some((size) => !Number.isInteger(size) || size < 0) ||
		!Number.isInteger(deliveries) ||
		deliveries < 1
	)
		throw new Error(
			'--sizes takes whole numbers separated by commas, --deliveries a whole number above 0',
		);
	return { sizes, deliveries };
}

// run-ts.js runs the bundle with process.argv[1] set to it; under jest this file is only imported.
if (process.argv[1]?.endsWith(path.join('bench', 'replayRecord.js'))) {
	const options = parseArgs(process.argv.slice(2));
	runReplayRecordBench(options)
		.then((result) => {
			console.log(render(result, options.deliveries));
			// n8n-core's container keeps handles open; the figures are out.
			process.exit(0);
		})
		.catch((error: unknown) => {
			console.error(error);
			process.exit(1);
		});
}
