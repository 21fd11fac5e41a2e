import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import * as esbuild from 'esbuild';

import { startSandbox, type Sandbox } from '../../dev/emulators';
import { aiToken, orgToken } from '../dev/emulators/testHelpers';
import { runAi } from '../nodes/ArchiveAiMetadata/helpers';
import { runOrganizationNode } from '../nodes/ArchiveOrganization/helpers';
import { ORG_PAGE_SIZE } from '../../dev/bench/lib/workflows';
import { DEFAULT_ACTION_CONCURRENCY } from '../../nodes/shared/n8n/limits';

// The pager warms the bench server one page further ahead than the node, at its default, sends past the end.
const WARM_CONCURRENCY = DEFAULT_ACTION_CONCURRENCY + 1;

/**
 * A reduced run of the Return All benchmark's floor: the bare fetch pager against the emulators in bench mode.
 * Behaviour only (no timings): every row arrives once, and after the warm-up every page is served from stored
 * bytes, so the measured runs do not measure the emulator's query engine.
 */

const run = promisify(execFile);

interface Figures {
	rows: number;
	requests: number;
	bytes: number;
	cpuSeconds: number;
}

describe('bare fetch pager against the bench server', () => {
	let sandbox: Sandbox;
	let script: string;
	let directory: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ rows: 3000, seed: 3, benchMode: true });
		directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pager-'));
		script = path.join(directory, 'fetchLoop.js');
		await esbuild.build({
			entryPoints: [path.join(__dirname, '..', '..', 'dev', 'bench', 'fetchLoop.ts')],
			bundle: true,
			platform: 'node',
			format: 'cjs',
			target: 'node20',
			outfile: script,
			logLevel: 'warning',
		});
	});

	afterAll(async () => {
		await sandbox.close();
		fs.rmSync(directory, { recursive: true, force: true });
	});

	async function pager(
		api: 'ai' | 'org',
		pageSize: number,
		concurrency: number,
		token: string,
	): Promise<Figures> {
		const url = api === 'ai' ? sandbox.ai.graphqlUrl : sandbox.org.apiUrl;
		const { stdout } = await run(
			process.execPath,
			[script, url, String(pageSize), '100', String(concurrency), api],
			{ env: { PATH: process.env.PATH, BENCH_TOKEN: token } },
		);
		return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Figures;
	}

	it('gets every face task with pages in flight; a second pass is served from stored bytes only', async () => {
		const token = await aiToken(sandbox);
		const cache = sandbox.responseCaches?.ai;
		const first = await pager('ai', 1000, 3, token);
		expect(first).toMatchObject({ rows: 3000 });
		expect(first.bytes).toBeGreaterThan(0);
		expect(first.cpuSeconds).toBeGreaterThan(0);
		const rendered = cache?.stats().misses;

		const second = await pager('ai', 1000, 3, token);
		expect(second).toMatchObject({ rows: 3000, bytes: first.bytes });
		expect(cache?.stats().misses).toBe(rendered);
		expect(cache?.stats().hits).toBeGreaterThanOrEqual(second.requests - 1);
	});

	it('asks for the very pages our AI node asks for: the node gets stored bytes only', async () => {
		const cache = sandbox.responseCaches?.ai;
		await pager('ai', 1000, WARM_CONCURRENCY, await aiToken(sandbox));
		const before = cache?.stats();
		const result = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'getAll',
			returnAll: true,
			output: 'raw',
			options: {},
		});
		expect(result.outputs[0]).toHaveLength(3000);
		// At most one new answer: the node's schema introspection. Every page was one the pager had asked for (the
		// rows are a multiple of the page size: after a short page the node would ask for the rest at its size).
		expect((cache?.stats().misses ?? 0) - (before?.misses ?? 0)).toBeLessThanOrEqual(1);
	});

	it('gets every organization in pages of the 500 cap, the pages our Organization node asks for', async () => {
		const cache = sandbox.responseCaches?.org;
		const figures = await pager('org', ORG_PAGE_SIZE, WARM_CONCURRENCY, await orgToken(sandbox));
		expect(figures.rows).toBe(sandbox.data.org.organizations.length);
		expect(figures.rows).toBeGreaterThan(ORG_PAGE_SIZE * 4);
		const before = cache?.stats();
		const result = await runOrganizationNode(sandbox, {
			resource: 'organization',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.outputs[0]).toHaveLength(figures.rows);
		// The introspection, and when the last page is short, the node's request for what follows it at that size.
		const afterShortPage = figures.rows % ORG_PAGE_SIZE === 0 ? 0 : 1;
		expect((cache?.stats().misses ?? 0) - (before?.misses ?? 0)).toBeLessThanOrEqual(
			1 + afterShortPage,
		);
	});
});
