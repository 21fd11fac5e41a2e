import type { Sandbox } from '../../emulators';
import type { ExecutionRecord, ExecutionStatus, N8nInstance } from '../../n8n/n8n';
import { newCredentialId } from '../../n8n/package';
import { restartAfterKill } from './fault-burst';
import {
	chainWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	POLL_EVERY_FIVE_SECONDS,
	type WorkflowJson,
} from '../../n8n/workflows';
import { aiCredentialImport } from '../../n8n/credentials';

/**
 * The AI Metadata Trigger while n8n is killed: rows keep appearing in the emulator's view, the trigger polls every 5
 * seconds, each run takes about two seconds (a Wait node, standing for the export a real workflow does), and n8n is
 * killed with SIGKILL at chosen moments, each time while a run is going (the moment a cursor moved at the poll would
 * lose rows), then restarted. Per row it counts what the issue asks: rows no run ever held, rows no run finished
 * with, and rows held by more than one run (repeats).
 */

export const VIEW = 'face_tasks';
export const TRIGGER_NAME = 'New Face Tasks';

export async function setUpPollingWorkflow(
	n8n: N8nInstance,
	sandbox: Sandbox,
): Promise<WorkflowJson> {
	const credential = { id: newCredentialId(), name: 'durability AI metadata' };
	await n8n.importCredentials([aiCredentialImport(credential, sandbox)]);
	const trigger = node(
		TRIGGER_NAME,
		PACKAGE_NODE_TYPES.aiMetadataTrigger,
		{
			pollTimes: POLL_EVERY_FIVE_SECONDS,
			view: VIEW,
			statuses: [],
			output: 'simplified',
			options: {},
		},
		{ credentials: { archiveAiMetadataApi: credential } },
	);
	const work = node(
		'Export',
		'n8n-nodes-base.wait',
		{ resume: 'timeInterval', amount: 2, unit: 'seconds' },
		{ typeVersion: 1.1 },
	);
	const workflow = chainWorkflow('durability AI metadata export', [trigger, work]);
	await n8n.importWorkflow(workflow);
	await n8n.activate(workflow.id, workflow.name);
	return workflow;
}

export interface ProductionOptions {
	rows: number;
	durationMs: number;
	/** Kill n8n at these fractions of the production (0..1), each at the next moment a run is going. */
	killAt: number[];
}

export interface ProductionResult {
	taskIds: string[];
	kills: number;
	durationMs: number;
}

/**
 * Inserts `rows` new rows evenly over `durationMs` (each batch one second past the newest time), killing and
 * restarting n8n as asked. Restarts run beside the production, as a crash does not stop the archive.
 */
export async function produceRowsWithKills(
	n8n: N8nInstance,
	sandbox: Sandbox,
	workflowId: string,
	options: ProductionOptions,
): Promise<ProductionResult> {
	const started = Date.now();
	const taskIds: string[] = [];
	const ticks = Math.max(1, Math.round(options.durationMs / 250));
	const killAt = [...options.killAt].sort((a, b) => a - b);
	let kills = 0;
	let crashing: Promise<void> = Promise.resolve();
	for (let tick = 0; tick < ticks; tick++) {
		const due = Math.round((options.rows * (tick + 1)) / ticks) - taskIds.length;
		if (due > 0) {
			for (const row of sandbox.data.ai.insert(VIEW, { count: due }))
				taskIds.push(String(row.task_id));
		}
		while (killAt.length > 0 && (tick + 1) / ticks >= killAt[0]) {
			killAt.shift();
			kills += 1;
			crashing = crashing.then(() => killDuringRun(n8n, workflowId));
		}
		await sleep(Math.max(0, started + ((tick + 1) * options.durationMs) / ticks - Date.now()));
	}
	await crashing;
	return { taskIds, kills, durationMs: Date.now() - started };
}

/** Waits (up to a minute) for a run of the workflow to be going, kills n8n with SIGKILL and starts it again. */
async function killDuringRun(n8n: N8nInstance, workflowId: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		const executions = await n8n.executionStatuses(workflowId);
		if (executions.some((execution) => isGoing(execution))) break;
		await sleep(100);
	}
	await n8n.kill();
	await restartAfterKill(n8n);
}

function isGoing(execution: ExecutionStatus): boolean {
	return ['new', 'running'].includes(execution.status);
}

export interface PollDurabilityCounts {
	rows: number;
	/** Rows no execution ever held (the cursor skipped them). */
	neverEmitted: number;
	/** Rows no successfully finished execution holds (held only by runs the kills cut off, or by none). */
	notFinished: number;
	/** Rows held by more than one execution. */
	repeated: number;
	executions: number;
	/** Executions the kills cut off (n8n marks them crashed). */
	cutOff: number;
}

/** task_ids an execution holds, anywhere in its data (a crashed run keeps its input in the execution stack). */
function taskIdsIn(execution: ExecutionRecord): Set<string> {
	const ids = new Set<string>();
	for (const match of JSON.stringify(execution.data ?? null).matchAll(/"task_id":"([^"]+)"/g))
		ids.add(match[1]);
	return ids;
}

/**
 * Waits until every row is held by a finished execution (or `timeoutMs` passed without progress), then counts.
 */
export async function countRows(
	n8n: N8nInstance,
	workflowId: string,
	taskIds: string[],
	timeoutMs = 120_000,
): Promise<PollDurabilityCounts> {
	let executions: ExecutionRecord[] = [];
	let finishedIds = new Set<string>();
	let lastProgress = Date.now();
	let previous = -1;
	for (;;) {
		executions = await n8n.executions(workflowId);
		finishedIds = new Set(
			executions
				.filter((execution) => execution.status === 'success')
				.flatMap((execution) => [...taskIdsIn(execution)]),
		);
		const going = executions.some(isGoing);
		if (!going && taskIds.every((id) => finishedIds.has(id))) break;
		if (finishedIds.size !== previous || going) {
			previous = finishedIds.size;
			lastProgress = Date.now();
		} else if (Date.now() - lastProgress > timeoutMs) break;
		await sleep(1000);
	}
	const runsPerId = new Map<string, number>();
	for (const execution of executions) {
		for (const id of taskIdsIn(execution)) runsPerId.set(id, (runsPerId.get(id) ?? 0) + 1);
	}
	return {
		rows: taskIds.length,
		neverEmitted: taskIds.filter((id) => !runsPerId.has(id)).length,
		notFinished: taskIds.filter((id) => !finishedIds.has(id)).length,
		repeated: taskIds.filter((id) => (runsPerId.get(id) ?? 0) > 1).length,
		executions: executions.length,
		cutOff: executions.filter((execution) => execution.status === 'crashed').length,
	};
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
