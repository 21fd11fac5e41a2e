/**
 * Our AI node's Return All in a bare Node process, outside n8n, for CPU profiles of the node's own code:
 *   npm run sandbox -- --bench --rows 100000 --ai-port 5701 &        (the bench server, in its own process)
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof scripts/run-ts.js dev/bench/profileReturnAll.ts \
 *     http://127.0.0.1:5701 [concurrency] [runs]
 * Runs the node through the test harness (n8n-core's execute context, as the unit tests do) `runs` times and prints
 * the wall time, CPU and RSS of each run. The first run warms the server's stored pages and V8.
 */
import * as os from 'node:os';
import * as path from 'node:path';

import type { Sandbox } from '../emulators';
import { DEMO_CREDENTIALS } from '../emulators';
import { runNode } from '../harness/execute';
import { aiCredentials } from '../harness/sandboxCredentials';
import { ArchiveAiMetadata } from '../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';

// Like the unit tests: n8n-core's instance settings go to a temporary user folder, not ~/.n8n.
process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), 'n8n-nodes-archive-services-test-n8n');
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';

async function main(): Promise<void> {
	const [base, concurrencyText, runsText] = process.argv.slice(2);
	if (!base) throw new Error('usage: profileReturnAll <ai base url> [concurrency] [runs]');
	const concurrency = Number(concurrencyText ?? 4);
	const runs = Number(runsText ?? 3);
	const target = {
		ai: {
			authUrl: `${base}/auth`,
			graphqlUrl: `${base}/ai-results/v1/graphql`,
			...DEMO_CREDENTIALS.ai,
		},
	} as unknown as Sandbox;
	for (let run = 0; run < runs; run++) {
		const rssBefore = process.memoryUsage().rss;
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		const result = await runNode({
			nodeType: new ArchiveAiMetadata(),
			parameters: {
				resource: 'faceTask',
				operation: 'getAll',
				returnAll: true,
				output: 'raw',
				options: { maxConcurrency: concurrency },
			},
			credentials: aiCredentials(target),
		});
		const wallMs = performance.now() - started;
		const cpu = process.cpuUsage(cpuBefore);
		const items = result.outputs[0]?.length ?? 0;
		process.stdout.write(
			`${JSON.stringify({
				run,
				items,
				error: result.error?.message,
				wallMs: Math.round(wallMs),
				cpuSeconds: (cpu.user + cpu.system) / 1e6,
				rssGrowthMiB: Math.round((process.memoryUsage().rss - rssBefore) / 1024 / 1024),
			})}\n`,
		);
	}
}

// Exits explicitly (kept-alive sockets would hold the process open, and --cpu-prof writes at exit).
main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
