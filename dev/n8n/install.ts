import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The package's root, found by walking up: this file also runs bundled into .build/ (run-ts). */
export const REPO_ROOT = findRepoRoot(__dirname);

function findRepoRoot(start: string): string {
	for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		const manifest = path.join(dir, 'package.json');
		if (fs.existsSync(manifest) && readPackageName(manifest) === 'n8n-nodes-archive-services')
			return dir;
	}
	throw new Error(`no n8n-nodes-archive-services package.json above ${start}`);
}

function readPackageName(manifest: string): unknown {
	try {
		return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
	} catch {
		return undefined;
	}
}

/** The n8n versions the package supports; e2e runs against each unless narrowed by env. */
export const SUPPORTED_N8N_VERSIONS = ['1.123.81', '2.40.7'] as const;

export interface N8nInstall {
	version: string;
	/** Directory holding the install's package.json and node_modules. */
	dir: string;
	/** n8n's entry script (run it with nodeBin, never with the Node running jest). */
	n8nBin: string;
	/** The Node 24 binary the install was built for. */
	nodeBin: string;
}

/** Versions to test: `E2E_N8N_VERSIONS=1.123.81,2.40.7` (comma or space separated). */
export function selectedN8nVersions(env: NodeJS.ProcessEnv = process.env): string[] {
	const requested = env.E2E_N8N_VERSIONS?.split(/[\s,]+/).filter(Boolean) ?? [];
	return requested.length > 0 ? requested : [...SUPPORTED_N8N_VERSIONS];
}

const resolvedInstalls = new Map<string, N8nInstall>();

/**
 * Returns the cached install of an n8n version, installing it first if needed (slow when cold:
 * minutes). The install script is idempotent and locked, so calling it per test file is cheap.
 */
export function ensureN8nInstall(version: string): N8nInstall {
	const known = resolvedInstalls.get(version);
	if (known) return known;
	const output = execFileSync(
		'bash',
		[path.join(REPO_ROOT, 'scripts', 'install-n8n.sh'), version],
		{
			cwd: REPO_ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const install = parseInstallOutput(version, output);
	resolvedInstalls.set(version, install);
	return install;
}

function parseInstallOutput(version: string, output: string): N8nInstall {
	const values = new Map<string, string>();
	for (const line of output.split('\n')) {
		const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
		if (match) values.set(match[1], match[2]);
	}
	const dir = values.get('N8N_DIR');
	const n8nBin = values.get('N8N_BIN');
	const nodeBin = values.get('NODE_BIN');
	if (!dir || !n8nBin || !nodeBin) {
		throw new Error(`install-n8n.sh ${version} printed no N8N_DIR/N8N_BIN/NODE_BIN:\n${output}`);
	}
	return { version, dir, n8nBin, nodeBin };
}
