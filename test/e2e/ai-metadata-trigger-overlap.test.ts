import { startSandbox, type Sandbox } from '../../dev/emulators';
import { aiCredentialImport } from '../../dev/n8n/credentials';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance, type ExecutionRecord } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { nodeJson } from '../../dev/n8n/run-data';
import {
	chainWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	POLL_EVERY_FIVE_SECONDS,
	setFields,
} from '../../dev/n8n/workflows';

// n8n starts a poll at every poll time without waiting for the last poll of the same trigger. Here one poll reads
// for longer than the interval (a slow API: 1.5 s per request, five pages one at a time), so one or two poll times
// come while it is still reading. Those must do nothing: before the fix each read from the same cursor and emitted
// the same rows again, as a second execution.

const pkg = packageUnderTest();
const VIEW = 'face_tasks';
const ROWS = 200;
const REQUEST_DELAY_MS = 1500;

describeIfPackageBuilt(pkg, 'ArchiveAiMetadataTrigger').each(selectedN8nVersions())(
	'Archive AI Metadata Trigger in n8n %s, a poll longer than the poll interval',
	(version) => {
		let sandbox: Sandbox;
		let n8n: N8nInstance;
		let executions: ExecutionRecord[];

		beforeAll(async () => {
			sandbox = await startSandbox({ rows: ROWS, seed: 21 });
			n8n = await N8nInstance.create({ version, ...pkg });
			const credential = { id: newCredentialId(), name: 'e2e AI metadata overlap' };
			await n8n.importCredentials([aiCredentialImport(credential, sandbox)]);
			const workflow = chainWorkflow('e2e AI metadata slow poll', [
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
					{ credentials: { archiveAiMetadataApi: credential } },
				),
				setFields('Exported', { exported: true }),
			]);
			const workflowId = await n8n.importWorkflow(workflow);
			await n8n.activate(workflow.id, workflow.name);

			// The poll n8n runs while activating the workflow finds nothing (it only sets the cursor at Start From):
			// n8n schedules the poll times after it, so the long poll has to be a scheduled one.
			sandbox.data.ai.withhold(VIEW);
			await n8n.start();
			sandbox.faults.set('ai', { slowMs: REQUEST_DELAY_MS });
			sandbox.data.ai.release(VIEW);
			await n8n.waitForExecutions(workflowId, 1);
			// Two more poll times after the run: a second emission of the same rows would be saved by then.
			await new Promise((resolve) => setTimeout(resolve, 12_000));
			executions = await n8n.executions(workflowId);
			await n8n.stop();
		});

		afterAll(async () => {
			await n8n?.dispose();
			await sandbox?.close();
		});

		it('emits every row once, in one execution', () => {
			expect(executions.map((each) => each.status)).toEqual(['success']);
			const emitted = nodeJson(executions[0].data!, 'New Face Tasks').map((each) => each.task_id);
			expect(emitted).toHaveLength(ROWS);
			expect(new Set(emitted).size).toBe(ROWS);
		});
	},
);
