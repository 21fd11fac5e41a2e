import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../n8n/install';
import { communityPackageDir } from '../../n8n/n8n';
import { FLOOR_PACKAGE_NAME } from './workflows';

/**
 * The bench-only floor package (dev/bench/floorNode: the scheduled export's poll trigger and the trigger bench's
 * webhook trigger) into an n8n user folder, where n8n loads community packages from. Before `n8n start`.
 */
export function placeFloorPackage(userFolder: string): void {
	fs.cpSync(
		path.join(REPO_ROOT, 'dev', 'bench', 'floorNode'),
		communityPackageDir(userFolder, FLOOR_PACKAGE_NAME),
		{ recursive: true },
	);
}
