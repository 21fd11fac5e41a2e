import { startSandbox, type AiDataset, type Sandbox } from '../../dev/emulators';
import { concurrentSetUps } from '../../dev/n8n/concurrent';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance, type ExecutionRecord } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeItems, nodeJson } from '../../dev/n8n/run-data';
import {
	chainWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	POLL_EVERY_FIVE_SECONDS,
	setFields,
} from '../../dev/n8n/workflows';
import { aiCredentialImport } from '../../dev/n8n/credentials';

// The AI Metadata polling trigger activated in a running n8n, polling every 5 seconds. The first poll emits what is
// new since "Start From"; after records are touched in the emulator, the next run emits exactly those. The cursor
// moves when a run has finished, and n8n saves it with the next emission: after a restart, the last run's records
// (whose end was never saved, as nothing was emitted after it) come once more, and nothing is skipped.
//
// Beside it, in the same n8n (one start-up per version instead of two), a second workflow whose trigger reads a second
// emulator: n8n starts a poll at every poll time without waiting for the last poll of the same trigger. There one
// poll reads for longer than the interval (a slow API: 1.5 s per request, five pages one at a time), so one or two
// poll times come while it is still reading. Those must do nothing: before the fix each read from the same cursor and
// emitted the same rows again, as a second execution. Each workflow reads its own emulator, so the slow API and the
// touched rows of one never reach the other; each test counts only its own workflow's executions.

const pkg = packageUnderTest();
const START_FROM = '2025-04-01T00:00:00Z';
const VIEW = 'face_tasks';
/** The slow poll's emulator: its rows, and the delay of each of its requests. */
const OVERLAP_ROWS = 200;
const OVERLAP_REQUEST_DELAY_MS = 1500;

/** Succeeded face tasks at or after START_FROM, in the order the trigger emits them (time, then task id). */
function expectedFirstPoll(data: AiDataset): string[] {
	const fromMicros = Date.parse(START_FROM) * 1000;
	return data
		.rows(VIEW)
		.filter((row) => row.status === 'succeeded' && Number(row.processed_time) >= fromMicros)
		.sort(
			(a, b) =>
				Number(a.processed_time) - Number(b.processed_time) ||
				String(a.task_id).localeCompare(String(b.task_id)),
		)
		.map((row) => String(row.task_id));
}

function emittedTaskIds(execution: ExecutionRecord): unknown[] {
	return nodeJson(execution.data!, 'New Face Tasks').map((each) => each.task_id);
}

interface Run {
	sandbox: Sandbox;
	overlapSandbox: Sandbox;
	n8n: N8nInstance;
	workflowId: string;
	firstExpected: string[];
	touched: string[];
	executions: ExecutionRecord[];
	overlapExecutions: ExecutionRecord[];
}

// Both n8n lines at once, each with its own emulators and n8n: the polls, the waits for poll times and the restart are
// waiting, so the second line's run overlaps the first's instead of following it.
const runOf = concurrentSetUps(selectedN8nVersions(), async (version): Promise<Run> => {
	let sandbox: Sandbox | undefined;
	let overlapSandbox: Sandbox | undefined;
	let n8n: N8nInstance | undefined;
	let touched: string[] = [];
	let overlapExecutions: ExecutionRecord[] = [];
	try {
		const sandboxes = await Promise.all([
			startSandbox({ rows: 200, seed: 21 }),
			startSandbox({ rows: OVERLAP_ROWS, seed: 21 }),
		]);
		[sandbox, overlapSandbox] = sandboxes;
		n8n = await N8nInstance.create({ version, ...pkg });
		const credential = { id: newCredentialId(), name: 'e2e AI metadata' };
		const overlapCredential = { id: newCredentialId(), name: 'e2e AI metadata overlap' };
		await n8n.importCredentials([
			aiCredentialImport(credential, sandbox),
			aiCredentialImport(overlapCredential, overlapSandbox),
		]);
		const trigger = node(
			'New Face Tasks',
			PACKAGE_NODE_TYPES.aiMetadataTrigger,
			{
				pollTimes: POLL_EVERY_FIVE_SECONDS,
				view: VIEW,
				statuses: ['succeeded'],
				output: 'simplified',
				options: { startFrom: START_FROM },
			},
			{ credentials: { archiveAiMetadataApi: credential } },
		);
		const workflow = chainWorkflow('e2e AI metadata export', [
			trigger,
			setFields('Exported', { exported: true }),
		]);
		const overlapWorkflow = chainWorkflow('e2e AI metadata slow poll', [
			node(
				'New Face Tasks',
				PACKAGE_NODE_TYPES.aiMetadataTrigger,
				{
					pollTimes: POLL_EVERY_FIVE_SECONDS,
					view: VIEW,
					statuses: [],
					output: 'simplified',
					options: { startFrom: '2000-01-01T00:00:00Z', pageSize: 50, maxConcurrency: 1 },
				},
				{ credentials: { archiveAiMetadataApi: overlapCredential } },
			),
			setFields('Exported', { exported: true }),
		]);
		await n8n.importWorkflows([workflow, overlapWorkflow]);
		const workflowId = workflow.id;
		const overlapWorkflowId = overlapWorkflow.id;
		await n8n.activate(workflow.id, workflow.name);
		await n8n.activate(overlapWorkflow.id, overlapWorkflow.name);

		const firstExpected = expectedFirstPoll(sandbox.data.ai);
		// The poll n8n runs while activating the slow workflow finds nothing (it only sets the cursor at Start
		// From): n8n schedules the poll times after it, so the long poll has to be a scheduled one.
		overlapSandbox.data.ai.withhold(VIEW);
		await n8n.start();
		overlapSandbox.faults.set('ai', { slowMs: OVERLAP_REQUEST_DELAY_MS });
		overlapSandbox.data.ai.release(VIEW);
		await Promise.all([
			(async () => {
				await n8n.waitForExecutions(workflowId, 1);
				touched = sandbox.data.ai.touch(VIEW, 3).map((record) => String(record.task_id));
				await n8n.waitForExecutions(workflowId, 2);
				// Two more polls with nothing new: no run.
				await sleep(11_000);
			})(),
			(async () => {
				await n8n.waitForExecutions(overlapWorkflowId, 1);
				// Two more poll times after the run: a second emission of the same rows would be saved by then.
				await sleep(12_000);
				overlapExecutions = await n8n.executions(overlapWorkflowId);
			})(),
		]);
		await n8n.stop();
		// The slow workflow's part is over: its emulator answers at once and holds nothing new after the restart.
		overlapSandbox.faults.clear('ai');
		overlapSandbox.data.ai.withhold(VIEW);
		await n8n.start();
		const executions = await n8n.waitForExecutions(workflowId, 3);
		await n8n.stop();
		return {
			sandbox,
			overlapSandbox,
			n8n,
			workflowId,
			firstExpected,
			touched,
			executions,
			overlapExecutions,
		};
	} catch (error) {
		await n8n?.dispose();
		await sandbox?.close();
		await overlapSandbox?.close();
		throw error;
	}
});

describeIfPackageBuilt(pkg, 'ArchiveAiMetadataTrigger').each(selectedN8nVersions())(
	'Archive AI Metadata Trigger in n8n %s',
	(version) => {
		let sandbox: Sandbox;
		let overlapSandbox: Sandbox;
		let n8n: N8nInstance;
		let workflowId: string;
		let firstExpected: string[];
		let touched: string[];
		let executions: ExecutionRecord[];
		let overlapExecutions: ExecutionRecord[];

		beforeAll(async () => {
			({
				sandbox,
				overlapSandbox,
				n8n,
				workflowId,
				firstExpected,
				touched,
				executions,
				overlapExecutions,
			} = await runOf(version));
		});

		afterAll(async () => {
			await n8n?.dispose();
			await sandbox?.close();
			await overlapSandbox?.close();
		});

		it('emits every record since "Start From" on the first poll, oldest first', () => {
			expect(firstExpected.length).toBeGreaterThan(3);
			expect(executions[0]).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(emittedTaskIds(executions[0])).toEqual(firstExpected);
		});

		it('emits only the records that became new since the previous poll', () => {
			expect(executions).toHaveLength(3);
			expect(executions[1]).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(emittedTaskIds(executions[1])).toEqual(touched);
		});

		it('after a restart emits the records of the last run once more, and skips nothing', () => {
			expect(executions).toHaveLength(3);
			expect(executions[2]).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(emittedTaskIds(executions[2])).toEqual(touched);
		});

		it('emits the simplified fields and feeds them to the next node with pairing', () => {
			const data = executions[1].data!;
			const [first] = nodeJson(data, 'New Face Tasks');

			expect(Object.keys(first).sort()).toEqual(
				[
					'cp',
					'error',
					'n_faces',
					'n_persons',
					'pid',
					'processed_time',
					'status',
					'task_id',
					'title',
				].sort(),
			);
			expect(nodeItems(data, 'Exported').map((each) => each.pairedItem)).toEqual(
				touched.map((_id, item) => ({ item })),
			);
		});

		it('keeps the password out of execution data and logs', async () => {
			const stored = JSON.stringify(await n8n.executions(workflowId));

			expect(stored).not.toContain(sandbox.ai.password);
			expect(n8n.unredactedServerLog()).not.toContain(sandbox.ai.password);
		});

		describe('a poll longer than the poll interval', () => {
			it('emits every row once, in one execution', () => {
				expect(overlapExecutions.map((each) => each.status)).toEqual(['success']);
				const emitted = nodeJson(overlapExecutions[0].data!, 'New Face Tasks').map(
					(each) => each.task_id,
				);
				expect(emitted).toHaveLength(OVERLAP_ROWS);
				expect(new Set(emitted).size).toBe(OVERLAP_ROWS);
			});
		});
	},
);

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
