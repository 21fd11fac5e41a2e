import type { WorkflowJson } from '../../n8n/workflows';

/** Workflow ids by role, for workflows given by role. */
export function idsOf(workflows: Record<string, WorkflowJson>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(workflows).map(([role, workflow]) => [role, workflow.id]),
	);
}
