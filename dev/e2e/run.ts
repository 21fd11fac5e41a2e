import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import { ensureN8nInstall, REPO_ROOT, selectedN8nVersions } from '../n8n/install';
import { runQueueMode } from './queue/run-queue';

// `npm run e2e [-- <jest args>]`: installs the selected n8n versions into the cache (slow only
// the first time), then runs the e2e suite against them. E2E_N8N_VERSIONS narrows the versions.
// `npm run e2e:queue` (`--queue`): the queue-mode suite in test/e2e/queue (see its README).
// `--install-only`: the installs alone (scripts/test.sh runs them beside the checks on a cold machine).
function main(args: string[]): number {
	const queue = args.includes('--queue');
	if (queue) return runQueueMode(args.filter((arg) => arg !== '--queue'));
	for (const version of selectedN8nVersions()) {
		const install = ensureN8nInstall(version);
		console.log(`e2e: n8n ${version} at ${install.dir}`);
	}
	if (args.includes('--install-only')) return 0;
	const jest = path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const result = spawnSync(process.execPath, [jest, '-c', 'test/e2e/jest.config.js', ...args], {
		cwd: REPO_ROOT,
		stdio: 'inherit',
	});
	return result.status ?? 1;
}

process.exitCode = main(process.argv.slice(2));
