import { spawn } from 'node:child_process';
import path from 'node:path';

interface Measurement {
	variant: string;
	ok: boolean;
	growthMiB: number;
	error?: string;
}

/** Runs the download-memory benchmark for one size and returns its figures (the --json line). */
async function runBench(sizeMiB: number, variants: string[]): Promise<Measurement[]> {
	const root = path.resolve(__dirname, '../..');
	const child = spawn(
		process.execPath,
		[
			'scripts/run-ts.js',
			'dev/bench/downloadMemory.ts',
			'--sizes',
			String(sizeMiB),
			'--variants',
			variants.join(','),
			'--json',
		],
		{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	await new Promise((resolve) => child.on('close', resolve));
	const line = output.split('\n').find((candidate) => candidate.startsWith('['));
	return JSON.parse(line ?? '[]') as Measurement[];
}

/**
 * A reduced run of dev/bench/downloadMemory.ts: with n8n's filesystem binary data mode, a 64 MiB download grows
 * the process by less than the file itself, so no copy of it is held (before streaming: about twice the file).
 */
describe('download memory benchmark (smoke)', () => {
	it('streams a 64 MiB file to n8n without holding a copy of it', async () => {
		const [filesystem] = await runBench(64, ['node-filesystem']);
		expect(filesystem).toMatchObject({ variant: 'node-filesystem', ok: true });
		expect(filesystem.growthMiB).toBeLessThan(64);
	}, 120_000);
});
