/**
 * Peak memory of Download Files for one large file, next to its floor (a bare client reading the same bytes).
 *
 *   node scripts/run-ts.js dev/bench/downloadMemory.ts [--sizes 10,100,500] [--variants ...] [--json]
 *
 * The parent process starts the AI emulator (object paths), a front that rewrites presignS3 links to a file
 * server, and the file server itself, all on loopback: the file server generates the bytes from one 64 KiB chunk
 * (so it holds no file) and declares Content-Length, as S3 does. Each measurement runs in a child process of its
 * own, and its figure is that process's peak RSS (getrusage maxrss) minus its RSS just before the download, after a
 * 1 KiB warm-up download that loaded every module. Variants:
 *
 *   floor-discard    a bare node:http client that drops each chunk (the least any client can use)
 *   floor-buffer     a bare node:http client that keeps the body as one Buffer (chunks + Buffer.concat)
 *   node-filesystem  the node inside n8n-core, binary data mode "filesystem" (the file streams to disk)
 *   node-default     the node inside n8n-core, binary data mode "default" (n8n keeps the file in memory, base64)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MIB = 1024 * 1024;
const VARIANTS = ['floor-discard', 'floor-buffer', 'node-filesystem', 'node-default'] as const;
type Variant = (typeof VARIANTS)[number];

interface Measurement {
	variant: Variant;
	sizeMiB: number;
	ok: boolean;
	/** Peak RSS minus RSS before the download, MiB. */
	growthMiB: number;
	peakMiB: number;
	baselineMiB: number;
	seconds: number;
	error?: string;
}

interface ChildSetup {
	fileBase: string;
	graphqlUrl: string;
	authUrl: string;
	email: string;
	password: string;
	taskId: string;
	storagePath: string;
}

function argument(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

/** Streams `bytes` bytes (Content-Length declared) from one reused chunk, honouring backpressure. */
function serveGenerated(res: ServerResponse, bytes: number): void {
	const chunk = Buffer.alloc(64 * 1024, 'a');
	res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(bytes) });
	let sent = 0;
	const pump = () => {
		while (sent < bytes && !res.destroyed) {
			const piece = Math.min(chunk.length, bytes - sent);
			sent += piece;
			if (!res.write(piece === chunk.length ? chunk : chunk.subarray(0, piece)))
				return void res.once('drain', pump);
		}
		res.end();
	};
	pump();
}

const rssMiB = () => process.memoryUsage.rss() / MIB;
const maxRssMiB = () => process.resourceUsage().maxRSS / 1024;

/** The file server's path names the size: /<bytes>/<anything>. */
function fileUrl(base: string, bytes: number): string {
	return `${base}/${bytes}/transcript.txt`;
}

async function bareDownload(url: string, keep: boolean): Promise<number> {
	return await new Promise((resolve, reject) => {
		httpRequest(url, (res) => {
			const chunks: Buffer[] = [];
			let size = 0;
			res.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (keep) chunks.push(chunk);
			});
			res.on('end', () => resolve(keep ? Buffer.concat(chunks, size).length : size));
			res.on('error', reject);
		})
			.on('error', reject)
			.end();
	});
}

async function nodeDownload(setup: ChildSetup, bytes: number): Promise<number> {
	const { ArchiveAiMetadata } = await import(
		'../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node'
	);
	const { ArchiveAiMetadataApi } = await import(
		'../../credentials/ArchiveAiMetadataApi.credentials'
	);
	const { credentialsFor, runNode } = await import('../harness/execute');
	const credentials = credentialsFor([new ArchiveAiMetadataApi()]);
	credentials.set('archiveAiMetadataApi', {
		authUrl: setup.authUrl,
		graphqlUrl: setup.graphqlUrl,
		email: setup.email,
		password: setup.password,
		allowPrivateAddresses: true,
		allowedDownloadOrigins: new URL(setup.fileBase).origin,
	});
	const result = await runNode({
		nodeType: new ArchiveAiMetadata(),
		parameters: {
			resource: 'speechTask',
			operation: 'downloadFiles',
			taskId: setup.taskId,
			files: ['transcript_txt'],
			options: { maxFileSizeMiB: Math.min(1024, Math.ceil(bytes / MIB) + 1) },
		},
		credentials,
	});
	if (result.error) throw new Error(result.error.message);
	const described = result.outputs[0][0].json.files as Array<{ bytes: number }>;
	return described[0].bytes;
}

/** One measurement, in this (child) process; prints one JSON line. */
async function child(variant: Variant, sizeMiB: number, setup: ChildSetup): Promise<void> {
	const bytes = sizeMiB * MIB;
	const run = async (size: number) => {
		if (variant === 'floor-discard')
			return await bareDownload(fileUrl(setup.fileBase, size), false);
		if (variant === 'floor-buffer') return await bareDownload(fileUrl(setup.fileBase, size), true);
		return await nodeDownload(setup, size);
	};
	const measurement: Measurement = {
		variant,
		sizeMiB,
		ok: false,
		growthMiB: 0,
		peakMiB: 0,
		baselineMiB: 0,
		seconds: 0,
	};
	try {
		await setFileSize(setup, 1024);
		await run(1024);
		global.gc?.();
		measurement.baselineMiB = rssMiB();
		await setFileSize(setup, bytes);
		const started = Date.now();
		const received = await run(bytes);
		measurement.seconds = (Date.now() - started) / 1000;
		if (received !== bytes) throw new Error(`received ${received} bytes of ${bytes}`);
		measurement.ok = true;
	} catch (error) {
		measurement.error = (error as Error).message.slice(0, 200);
	}
	measurement.peakMiB = maxRssMiB();
	measurement.growthMiB = measurement.peakMiB - measurement.baselineMiB;
	process.stdout.write(`${JSON.stringify(measurement)}\n`);
}

/** The size the file server's next /file answers have (the node's link cannot carry it: presignS3 writes it). */
async function setFileSize(setup: ChildSetup, bytes: number): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		httpRequest(`${setup.fileBase}/size/${bytes}`, { method: 'POST' }, (res) => {
			res.resume();
			res.on('end', () => resolve());
		})
			.on('error', reject)
			.end();
	});
}

async function parent(): Promise<void> {
	const sizes = argument('sizes', '10,100,500').split(',').map(Number);
	const variants = argument('variants', VARIANTS.join(',')).split(',') as Variant[];
	const { startSandbox } = await import('../emulators');
	const { forward, startTestOrigin } = await import('../harness/testOrigin');
	const sandbox = await startSandbox({ rows: 20, aiRawStorage: 'paths' });

	let nextSize = 1024;
	const files = createServer((req, res) => {
		const sizeRoute = /^\/size\/(\d+)$/.exec(req.url ?? '');
		if (sizeRoute) {
			nextSize = Number(sizeRoute[1]);
			return void res.end();
		}
		const bytesRoute = /^\/(\d+)\//.exec(req.url ?? '');
		serveGenerated(res, bytesRoute ? Number(bytesRoute[1]) : nextSize);
	});
	await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
	const fileBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

	const front = await startTestOrigin((request, res) => {
		if (!request.body.toString('utf8').includes('PresignFiles'))
			return forward(request, res, sandbox.ai.baseUrl);
		// Every presigned link goes to the file server's current size.
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				data: { presignS3: [{ presigned_txt: `${fileBase}/file/transcript.txt?sig=x` }] },
			}),
		);
	});
	const taskId = String(
		(
			sandbox.data.ai.records('speech_tasks', ['task_id', 'status']) as Array<
				Record<string, unknown>
			>
		).find((row) => row.status === 'succeeded')?.task_id,
	);
	const storagePath = mkdtempSync(path.join(tmpdir(), 'download-memory-'));
	const setup: ChildSetup = {
		fileBase,
		graphqlUrl: `${front.baseUrl}${new URL(sandbox.ai.graphqlUrl).pathname}`,
		authUrl: sandbox.ai.authUrl,
		email: sandbox.ai.email,
		password: sandbox.ai.password,
		taskId,
		storagePath,
	};

	const measurements: Measurement[] = [];
	try {
		for (const sizeMiB of sizes) {
			for (const variant of variants) {
				const mode = variant === 'node-filesystem' ? 'filesystem' : 'default';
				// Asynchronously: this process serves the child's downloads meanwhile.
				measurements.push(await runChild(variant, sizeMiB, setup, mode));
			}
		}
	} finally {
		rmSync(storagePath, { recursive: true, force: true });
		files.closeAllConnections();
		await Promise.all([
			sandbox.close(),
			front.close(),
			new Promise((resolve) => files.close(resolve)),
		]);
	}
	if (process.argv.includes('--json')) console.log(JSON.stringify(measurements));
	printTable(sizes, variants, measurements);
}

async function runChild(
	variant: Variant,
	sizeMiB: number,
	setup: ChildSetup,
	mode: string,
): Promise<Measurement> {
	// This file as run-ts bundled it: the child runs the same code.
	const child = spawn(
		process.execPath,
		['--expose-gc', __filename, '--child', variant, String(sizeMiB), JSON.stringify(setup)],
		{
			env: {
				...process.env,
				N8N_DEFAULT_BINARY_DATA_MODE: mode,
				N8N_BINARY_DATA_STORAGE_PATH: setup.storagePath,
			},
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	await new Promise((resolve) => child.on('close', resolve));
	const line = output.trim().split('\n').pop() ?? '';
	try {
		return JSON.parse(line) as Measurement;
	} catch {
		return {
			variant,
			sizeMiB,
			ok: false,
			growthMiB: 0,
			peakMiB: 0,
			baselineMiB: 0,
			seconds: 0,
			error: `child printed no figures (${line.slice(0, 120)})`,
		};
	}
}

function printTable(sizes: number[], variants: Variant[], measurements: Measurement[]): void {
	const cell = (measurement: Measurement | undefined) => {
		if (!measurement) return '-';
		if (!measurement.ok) return `failed: ${measurement.error ?? '?'}`;
		return `+${measurement.growthMiB.toFixed(0)} MiB (peak ${measurement.peakMiB.toFixed(0)}, ${measurement.seconds.toFixed(1)} s)`;
	};
	console.log('\nPeak RSS growth during one download (peak RSS minus RSS just before it)\n');
	console.log(`| file | ${variants.join(' | ')} |`);
	console.log(`|---|${variants.map(() => '---').join('|')}|`);
	for (const sizeMiB of sizes) {
		const row = variants.map((variant) =>
			cell(measurements.find((m) => m.variant === variant && m.sizeMiB === sizeMiB)),
		);
		console.log(`| ${sizeMiB} MiB | ${row.join(' | ')} |`);
	}
}

if (process.argv[2] === '--child') {
	const [, , , variant, sizeMiB, setup] = process.argv;
	void child(variant as Variant, Number(sizeMiB), JSON.parse(setup) as ChildSetup).then(() =>
		process.exit(0),
	);
} else {
	void parent().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
