import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Webhook } from 'standardwebhooks';

import { postJson, request } from '../../dev/n8n/http';
import { REPO_ROOT, selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance, type PackageMode } from '../../dev/n8n/n8n';
import { nodeJson } from '../../dev/n8n/run-data';
import { waitPastStartRefusal, withE2eTolerance } from '../../dev/n8n/sip-start-refusal';
import {
	chainWorkflow,
	manualWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	SIP_TRIGGER_VERSION,
	setFields,
} from '../../dev/n8n/workflows';

// The package as n8n loads it from the user folder. `E2E_PACKAGE_ROOT` points at another built
// copy (package.json + index.js + dist); `E2E_PACKAGE_MODE=copy` places only those files, as an
// npm install of the package would, instead of a symlink to the repo.
const packageRoot = process.env.E2E_PACKAGE_ROOT ?? REPO_ROOT;
const packageMode = (process.env.E2E_PACKAGE_MODE ?? 'symlink') as PackageMode;
const sipTriggerBuilt = fs.existsSync(
	path.join(
		packageRoot,
		'dist',
		'nodes',
		'ArchiveSipStatusTrigger',
		'ArchiveSipStatusTrigger.node.js',
	),
);
const describeIfBuilt = sipTriggerBuilt ? describe : describe.skip;

/** Manual Trigger -> Set, plus an unconnected node of the given type that n8n must still resolve. */
function workflowMentioning(nodeType: string) {
	const workflow = manualWorkflow(`e2e knows ${nodeType}`, [setFields('Set', { ran: true })]);
	workflow.nodes.push({ ...node('Unconnected', nodeType, {}), position: [0, 300] });
	return workflow;
}

describeIfBuilt.each(selectedN8nVersions())('package loaded by n8n %s', (version) => {
	let n8n: N8nInstance;

	beforeAll(async () => {
		n8n = await N8nInstance.create({ version, packageMode, packageRoot });
	});

	afterAll(async () => {
		await n8n?.dispose();
	});

	it('resolves the package node type, which n8n without the package refuses', async () => {
		const workflow = workflowMentioning(PACKAGE_NODE_TYPES.sipStatusTrigger);
		await n8n.importWorkflow(workflow);
		const { run } = await n8n.execute(workflow.id);
		expect(nodeJson(run.data, 'Set')).toEqual([{ ran: true }]);

		const bare = await N8nInstance.create({ version, packageMode: 'none' });
		try {
			await bare.importWorkflow(workflow);
			await expect(bare.execute(workflow.id)).rejects.toThrow(/Unrecognized node type|not known/i);
		} finally {
			await bare.dispose();
		}
	});

	it('runs an active SIP status trigger on a signed delivery and refuses an unsigned one', async () => {
		const secret = `whsec_${randomBytes(32).toString('base64')}`;
		const credential = { id: randomUUID().replace(/-/g, '').slice(0, 16), name: 'e2e sip secret' };
		await n8n.importCredentials([
			{ ...credential, type: 'archiveSipWebhookApi', data: { signingSecret: secret } },
		]);
		const trigger = node(
			'SIP Status',
			PACKAGE_NODE_TYPES.sipStatusTrigger,
			{ options: withE2eTolerance() },
			{
				typeVersion: SIP_TRIGGER_VERSION,
				credentials: { archiveSipWebhookApi: credential },
				webhookId: randomUUID(),
			},
		);
		const workflow = chainWorkflow('e2e sip status', [trigger, setFields('Mark', { seen: true })]);
		await n8n.importWorkflow(workflow);
		await n8n.activate(workflow.id, workflow.name);
		await n8n.start();
		try {
			// A trigger webhook's production URL is /webhook/<webhookId>/<path from its description>.
			const url = `${n8n.baseUrl}/webhook/${trigger.webhookId}/sip-status`;
			// Every production delivery signed up to n8n's start + the tolerance is refused (503).
			await waitPastStartRefusal(url, secret);
			const body = JSON.stringify({
				type: 'service.sip.archived',
				timestamp: new Date().toISOString(),
				data: { correlation_id: `e2e-${randomUUID()}`, outcome: 'success', pid: 'e2epid' },
			});
			const messageId = `msg_${randomUUID().replace(/-/g, '')}`;
			const now = new Date();
			const signed = await request(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'webhook-id': messageId,
					'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
					'webhook-signature': new Webhook(secret).sign(messageId, now, body),
				},
				body,
			});
			const unsigned = await postJson(url, JSON.parse(body) as unknown);
			const executions = await n8n.waitForExecutions(workflow.id, 1);

			expect(signed.status).toBe(204);
			expect(unsigned.status).toBe(401);
			expect(unsigned.body).not.toContain(secret);
			expect(executions).toHaveLength(1);
			expect(executions[0]).toMatchObject({ mode: 'webhook', status: 'success' });
			const [event] = nodeJson(executions[0].data!, 'SIP Status');
			expect(event.correlation_id).toBe(
				(JSON.parse(body) as { data: { correlation_id: string } }).data.correlation_id,
			);
			expect(n8n.serverLog()).not.toContain(secret);
		} finally {
			await n8n.stop();
		}
	});
});

if (!sipTriggerBuilt) {
	it.skip(`package e2e: ${packageRoot}/dist not built yet (npm run build)`, () => undefined);
}
