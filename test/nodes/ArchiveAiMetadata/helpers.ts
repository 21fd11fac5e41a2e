import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { clearAccessTokenCache } from '../../../credentials/common/accessToken';
import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import { clearSchemaCache } from '../../../nodes/shared/graphql/schemaCache';
import { startSandbox } from '../../../dev/emulators';
import type { Sandbox, SandboxOptions } from '../../../dev/emulators';
import { runNode } from '../../../dev/harness/execute';
import type { NodeRunResult } from '../../../dev/harness/execute';
import type { TestCredentialsHelper } from '../../../dev/harness/credentialsHelper';
import { aiCredentials } from '../../../dev/harness/sandboxCredentials';

export { aiCredentials };

export interface AiRunOptions {
	input?: IDataObject[];
	settings?: Partial<INode>;
	credentials?: TestCredentialsHelper;
}

/**
 * Runs the AI Metadata node. Most tests compare whole rows with the emulator's, so Output is Raw unless the test
 * sets it (the default, Simplified, has tests of its own).
 */
export async function runAi(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: AiRunOptions = {},
): Promise<NodeRunResult> {
	return await runNode({
		nodeType: new ArchiveAiMetadata(),
		parameters: { output: 'raw', ...parameters },
		input: options.input,
		settings: options.settings,
		credentials: options.credentials ?? aiCredentials(sandbox),
	});
}

/** Output JSON of the first output. */
export function jsonOf(result: NodeRunResult): IDataObject[] {
	return (result.outputs[0] ?? []).map((item) => item.json);
}

/** Paging may leave look-ahead requests in flight when a run ends; let them land before counting anew. */
export async function settle(sandbox: Sandbox): Promise<void> {
	let before = JSON.stringify(sandbox.counters.get());
	for (;;) {
		await new Promise((resolve) => setTimeout(resolve, 50));
		const now = JSON.stringify(sandbox.counters.get());
		if (now === before) return;
		before = now;
	}
}

/** Fresh state between tests: no cached schema or token, no faults, zeroed counters. */
export async function resetState(sandbox: Sandbox): Promise<void> {
	await settle(sandbox);
	clearSchemaCache();
	clearAccessTokenCache();
	sandbox.faults.clear();
	sandbox.counters.reset();
}

export async function withSandbox(options: SandboxOptions): Promise<Sandbox> {
	return await startSandbox(options);
}

export function graphqlRequests(sandbox: Sandbox): number {
	return sandbox.counters.get().ai.requests.graphql ?? 0;
}

/** Sort helper for expected rows: compares by the given columns like Postgres does for text (code points). */
export function sortBy<T extends IDataObject>(rows: T[], columns: string[]): T[] {
	return [...rows].sort((a, b) => {
		for (const column of columns) {
			const left = String(a[column]);
			const right = String(b[column]);
			if (left < right) return -1;
			if (left > right) return 1;
		}
		return 0;
	});
}
