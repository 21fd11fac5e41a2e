import { randomUUID } from 'node:crypto';

import { postJson, startRecordingServer, type RecordingServer } from '../../dev/n8n/http';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { nodeJson } from '../../dev/n8n/run-data';
import {
	chainWorkflow,
	code,
	manualWorkflow,
	node,
	setFields,
	webhookTrigger,
	type WorkflowJson,
} from '../../dev/n8n/workflows';

// Proves the harness itself against each real n8n with built-in nodes only, so that a failure
// in the package's e2e tests can be told apart from a harness problem.
describe.each(selectedN8nVersions())('harness on n8n %s (built-in nodes)', (version) => {
	// Every workflow is imported in one CLI run up front: each n8n CLI run costs seconds of CPU.
	const secret = `e2e-secret-${randomUUID()}`;
	const credential = { id: newId(), name: 'e2e header auth', type: 'httpHeaderAuth' };
	const webhookPath = `e2e-${randomUUID()}`;
	let n8n: N8nInstance;
	let target: RecordingServer;
	let workflows: Record<'setAndCode' | 'failing' | 'credentialUse' | 'webhook', WorkflowJson>;

	beforeAll(async () => {
		target = await startRecordingServer(() => ({ answered: true }));
		n8n = await N8nInstance.create({ version, packageMode: 'none' });
		workflows = {
			setAndCode: manualWorkflow('e2e set and code', [
				setFields('Set', { greeting: 'hello', count: 3 }),
				code(
					'Code',
					'return $input.all().map((item) => ({ json: { ...item.json, doubled: item.json.count * 2 } }));',
				),
			]),
			failing: manualWorkflow('e2e failing code', [
				code('Broken', "throw new Error('deliberate e2e failure');"),
			]),
			credentialUse: manualWorkflow('e2e credential use', [
				node(
					'Call',
					'n8n-nodes-base.httpRequest',
					{
						url: `${target.url}/check`,
						authentication: 'genericCredentialType',
						genericAuthType: 'httpHeaderAuth',
						options: {},
					},
					{
						typeVersion: 4.2,
						credentials: { httpHeaderAuth: { id: credential.id, name: credential.name } },
					},
				),
			]),
			webhook: chainWorkflow('e2e webhook', [
				webhookTrigger('Webhook', { path: webhookPath }),
				setFields('Mark', { seen: true }),
			]),
		};
		await n8n.importCredentials([{ ...credential, data: { name: 'X-E2E-Token', value: secret } }]);
		await n8n.importWorkflows(Object.values(workflows));
	});

	afterAll(async () => {
		await n8n?.dispose();
		await target?.close();
	});

	it('executes Manual Trigger -> Set -> Code with `n8n execute`', async () => {
		const { run, succeeded } = await n8n.execute(workflows.setAndCode.id);

		expect(succeeded).toBe(true);
		expect(nodeJson(run.data, 'Set')).toEqual([{ greeting: 'hello', count: 3 }]);
		expect(nodeJson(run.data, 'Code')).toEqual([{ greeting: 'hello', count: 3, doubled: 6 }]);
	});

	it('returns the run of a failing workflow with its error', async () => {
		await expect(n8n.execute(workflows.failing.id)).rejects.toThrow(/deliberate e2e failure/);
		const { run, succeeded } = await n8n.execute(workflows.failing.id, { allowFailure: true });

		expect(succeeded).toBe(false);
		expect(run.data.resultData.error?.message).toMatch(/deliberate e2e failure/);
	});

	it('imports plain credential data encrypted and uses it in a node', async () => {
		const stored = await n8n.query<{ data: string }>(
			`SELECT data FROM credentials_entity WHERE id = '${credential.id}'`,
		);
		const { run } = await n8n.execute(workflows.credentialUse.id);

		expect(stored).toHaveLength(1);
		expect(stored[0].data).not.toContain(secret);
		expect(stored[0].data).not.toContain('X-E2E-Token');
		expect(target.requests.map((each) => each.headers['x-e2e-token'])).toEqual([secret]);
		expect(nodeJson(run.data, 'Call')).toEqual([{ answered: true }]);
	});

	it('serves an activated Webhook workflow from `n8n start` and records the execution', async () => {
		const workflow = workflows.webhook;
		await n8n.activate(workflow.id, workflow.name);
		await n8n.start();
		try {
			const response = await postJson(`${n8n.baseUrl}/webhook/${webhookPath}`, {
				hello: 'archive',
			});
			const [execution] = await n8n.waitForExecutions(workflow.id, 1);

			expect(response.status).toBe(200);
			expect(execution).toMatchObject({
				workflowId: workflow.id,
				mode: 'webhook',
				status: 'success',
			});
			const [received] = nodeJson(execution.data!, 'Webhook');
			expect(received.body).toEqual({ hello: 'archive' });
			expect(nodeJson(execution.data!, 'Mark')).toEqual([{ seen: true }]);
		} finally {
			await n8n.stop();
		}
	});
});

function newId(): string {
	return randomUUID().replace(/-/g, '').slice(0, 16);
}
