import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../dev/n8n/install';
import type { WorkflowJson } from '../../dev/n8n/workflows';

/** The example workflows users import: `npm start` and test/e2e/examples.test.ts import these very files. */
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

/** Paths of examples/*.json, by name. */
export function exampleFiles(): string[] {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => path.join(EXAMPLES_DIR, name));
}

export function readExample(file: string): WorkflowJson {
	return JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
}
