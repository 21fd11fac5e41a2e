import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { N8nInstance } from '../../n8n/n8n';
import type { WorkflowJson } from '../../n8n/workflows';

/** Imports many workflows with one `n8n import:workflow` (it takes an array): one n8n start-up instead of one each. */
export async function importWorkflows(n8n: N8nInstance, workflows: WorkflowJson[]): Promise<void> {
	if (workflows.length === 0) return;
	const file = path.join(n8n.userFolder, `bench-workflows-${randomBytes(6).toString('hex')}.json`);
	fs.writeFileSync(file, JSON.stringify(workflows));
	try {
		await n8n.cli(['import:workflow', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/** Workflow ids by role, for workflows given by role. */
export function idsOf(workflows: Record<string, WorkflowJson>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(workflows).map(([role, workflow]) => [role, workflow.id]),
	);
}
