import type {
	ICredentialDataDecryptedObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';

import { ArchiveSipStatusTrigger } from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import {
	freezeClock,
	postRaw,
	startWebhookHarness,
	unfreezeClock,
	type HttpAnswer,
	type WebhookHarness,
	type WebhookHarnessOptions,
} from '../../../dev/harness/webhook';
import { acceptedIds } from '../../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE_NAME,
	signedHeaders,
} from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';

/**
 * The trigger over real HTTP (dev/harness/webhook) for the delivery tests of this folder: a node started per test,
 * signed deliveries, the clock frozen at NOW_SECONDS. Each test file calls useTriggerHarness() once.
 */

export const NOW_SECONDS = 1_758_548_009;
export const SECRET = generateSecret();

let harnesses: WebhookHarness[] = [];
let workflowCounter = 0;

interface TriggerSetup {
	parameters?: INodeParameters;
	credentials?: ICredentialDataDecryptedObject;
	mode?: WebhookHarnessOptions['mode'];
	rawBody?: WebhookHarnessOptions['rawBody'];
	workflowId?: string;
}

/** Each trigger gets its own workflow id, so replay and rate-limit state never leak between tests. */
export async function startTrigger(setup: TriggerSetup = {}): Promise<WebhookHarness> {
	workflowCounter += 1;
	const harness = await startWebhookHarness(new ArchiveSipStatusTrigger(), {
		nodeTypeName: NODE_TYPE_NAME,
		workflowId: setup.workflowId ?? `trigger-test-${workflowCounter}`,
		parameters: setup.parameters,
		credentials: { [CREDENTIAL_TYPE]: setup.credentials ?? { signingSecret: SECRET } },
		mode: setup.mode,
		rawBody: setup.rawBody,
	});
	harnesses.push(harness);
	return harness;
}

let messageCounter = 0;
export function nextId(): string {
	messageCounter += 1;
	return `msg_test_${messageCounter}`;
}

export async function deliver(
	harness: WebhookHarness,
	body: string,
	options: { secret?: string; id?: string; timestamp?: number } = {},
): Promise<HttpAnswer> {
	const headers = signedHeaders(
		options.secret ?? SECRET,
		options.id ?? nextId(),
		options.timestamp ?? NOW_SECONDS,
		body,
	);
	return await postRaw(harness.url, body, headers);
}

export function errorOf(answer: HttpAnswer): string {
	return (JSON.parse(answer.body) as { error: string }).error;
}

export function onlyItem(harness: WebhookHarness): INodeExecutionData {
	const runs = harness.runs();
	expect(runs).toHaveLength(1);
	expect(runs[0]).toHaveLength(1);
	expect(runs[0][0]).toHaveLength(1);
	return runs[0][0][0];
}

/**
 * Freezes the clock at NOW_SECONDS before each test and closes the test's triggers after it. The replay record
 * starts empty for each test, begun before any timestamp the tests sign (restartGuard.test.ts covers a later start).
 */
export function useTriggerHarness(): void {
	beforeEach(() => {
		freezeClock(NOW_SECONDS * 1000);
		acceptedIds.reset(0);
	});

	afterEach(async () => {
		unfreezeClock();
		await Promise.all(harnesses.map(async (harness) => await harness.close()));
		harnesses = [];
	});
}

/**
 * The node from a fresh copy of its modules: what another n8n process (or one after a restart) would load. Its
 * replay record begins at `startedAtMs`: by default long ago, so that deliveries signed now are past the refusal
 * that follows a start (restart tests pass the time the process started).
 */
export function loadIsolatedNodeType(startedAtMs = 0): INodeType {
	let nodeType: INodeType | undefined;
	jest.isolateModules(() => {
		/* eslint-disable @typescript-eslint/no-require-imports */
		const module =
			require('../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node') as typeof import('../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node');
		const record =
			require('../../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds') as typeof import('../../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds');
		/* eslint-enable @typescript-eslint/no-require-imports */
		record.acceptedIds.reset(startedAtMs);
		nodeType = new module.ArchiveSipStatusTrigger();
	});
	return nodeType!;
}
