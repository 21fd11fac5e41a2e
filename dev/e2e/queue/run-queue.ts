import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ensureN8nInstall, REPO_ROOT } from '../../n8n/install';
import { ensureQueueServices } from './cluster';
import { FIGURES_FILE, formatFigures, type QueueFigures } from './figures';
import { queueVersions } from './selection';

/**
 * `npm run e2e:queue [-- <jest args>]`: installs what queue mode needs (n8n, Redis, PostgreSQL)
 * before any test's timeout starts, runs test/e2e/queue with E2E_QUEUE=1, then prints the figures
 * the suite measured.
 */
export function runQueueMode(jestArgs: string[]): number {
	for (const version of queueVersions()) {
		const install = ensureN8nInstall(version);
		console.log(`e2e:queue: n8n ${version} at ${install.dir}`);
	}
	ensureQueueServices();
	fs.rmSync(FIGURES_FILE, { force: true });
	const jest = path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const result = spawnSync(
		process.execPath,
		// One file at a time: each starts a whole cluster (PostgreSQL, Redis, five n8n processes), and the fault
		// tests measure what happens under a fault, not under a second cluster's load.
		[jest, '-c', 'test/e2e/jest.config.js', '--maxWorkers=1', ...jestArgs, 'test/e2e/queue/'],
		{ cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, E2E_QUEUE: '1' } },
	);
	if (fs.existsSync(FIGURES_FILE)) {
		console.log(formatFigures(JSON.parse(fs.readFileSync(FIGURES_FILE, 'utf8')) as QueueFigures));
	}
	return result.status ?? 1;
}
