import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from './install';
import type { PackageMode } from './n8n';

/**
 * The package as n8n loads it from the user folder. `E2E_PACKAGE_ROOT` points at another built
 * copy (package.json + index.js + dist); `E2E_PACKAGE_MODE=copy` places only those files, as an
 * npm install of the package would, instead of a symlink to the repo.
 */
export interface PackageUnderTest {
	packageRoot: string;
	packageMode: PackageMode;
}

export function packageUnderTest(env: NodeJS.ProcessEnv = process.env): PackageUnderTest {
	return {
		packageRoot: env.E2E_PACKAGE_ROOT ?? REPO_ROOT,
		packageMode: (env.E2E_PACKAGE_MODE ?? 'symlink') as PackageMode,
	};
}

/**
 * Whether dist holds the bundle of a node, by its class name (e.g. `ArchiveOrganization`): found through the
 * package's `n8n.nodes` list, as n8n finds it, so a node may live in any folder.
 */
export function isNodeBuilt(pkg: PackageUnderTest, nodeName: string): boolean {
	const manifest = JSON.parse(
		fs.readFileSync(path.join(pkg.packageRoot, 'package.json'), 'utf8'),
	) as {
		n8n?: { nodes?: string[] };
	};
	const entry = (manifest.n8n?.nodes ?? []).find(
		(file) => path.basename(file) === `${nodeName}.node.js`,
	);
	return entry !== undefined && fs.existsSync(path.join(pkg.packageRoot, entry));
}

/**
 * `describe` when every named node is built, else `describe.skip` plus a visible skipped test
 * naming what is missing (an e2e run before `npm run build` must not look green by accident).
 */
export function describeIfPackageBuilt(
	pkg: PackageUnderTest,
	...nodeNames: string[]
): jest.Describe {
	const missing = nodeNames.filter((name) => !isNodeBuilt(pkg, name));
	if (missing.length === 0) return describe;
	it.skip(`${missing.join(', ')} not built in ${pkg.packageRoot}/dist (npm run build)`, () =>
		undefined);
	return describe.skip;
}

/** n8n's credential ids are 16 alphanumerics; imports keep the id given. */
export function newCredentialId(): string {
	return randomUUID().replace(/-/g, '').slice(0, 16);
}
