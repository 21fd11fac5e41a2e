import { randomBytes, randomUUID } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import {
	buildFailureEvent,
	buildSuccessEvent,
	generateSecret,
	send,
	type SendResult,
	type StatusEvent,
} from '../../dev/emulators/webhook/sender';
import { postJson, request, type HttpResponse } from '../../dev/n8n/http';
import { waitPastStartRefusal, withE2eTolerance } from '../../dev/n8n/sip-start-refusal';
import { packageUnderTest, describeIfPackageBuilt, newCredentialId } from '../../dev/n8n/package';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance, type ExecutionRecord } from '../../dev/n8n/n8n';
import { nodeItems, nodeJson, type CliRun } from '../../dev/n8n/run-data';
import {
	chainWorkflow,
	graphWorkflow,
	manualWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	setFields,
	SIP_TRIGGER_VERSION,
	type WorkflowJson,
} from '../../dev/n8n/workflows';

// The SIP Status Trigger activated in a running n8n, fed by the emulator's webhook sender: the
// statuses the sender sees and the executions n8n records are both asserted.
//
// In the same n8n (one start-up per version), the package as n8n loads it from the user folder: `E2E_PACKAGE_ROOT`
// points at another built copy (package.json + index.js + dist); `E2E_PACKAGE_MODE=copy` places only those files, as
// an npm install of the package would, instead of a symlink to the repo (`packageUnderTest()`). n8n resolves the
// package's node type (and n8n without the package refuses it), and runs an active SIP status trigger of the most
// basic setup on a signed delivery and refuses an unsigned one.

const pkg = packageUnderTest();

/** Manual Trigger -> Set, plus an unconnected node of the given type that n8n must still resolve. */
function workflowMentioning(nodeType: string): WorkflowJson {
	const workflow = manualWorkflow(`e2e knows ${nodeType}`, [setFields('Set', { ran: true })]);
	workflow.nodes.push({ ...node('Unconnected', nodeType, {}), position: [0, 300] });
	return workflow;
}

interface Deliveries {
	success: { event: StatusEvent; result: SendResult };
	failure: { event: StatusEvent; result: SendResult };
	tampered: SendResult;
	replayed: SendResult;
	stale: SendResult;
	rotated: { event: StatusEvent; result: SendResult };
}

describeIfPackageBuilt(pkg, 'ArchiveSipStatusTrigger').each(selectedN8nVersions())(
	'Archive SIP Status Trigger in n8n %s',
	(version) => {
		const signingSecret = generateSecret(32);
		// A second secret, as during a rotation: events signed only with it must be accepted too.
		const rotatedSecret = generateSecret(32);
		let n8n: N8nInstance;
		let workflowId: string;
		let deliveries: Deliveries;
		let executions: ExecutionRecord[];
		let multipart: HttpResponse;
		let guardedWorkflowId: string;
		let justStarted: SendResult;
		// The package as n8n loads it: a workflow naming the node type (run with `n8n execute` before the start), and
		// the most basic active trigger.
		const mentioning = workflowMentioning(PACKAGE_NODE_TYPES.sipStatusTrigger);
		let mentioningRun: CliRun;
		const basicSecret = `whsec_${randomBytes(32).toString('base64')}`;
		const basicCredential = {
			id: randomUUID().replace(/-/g, '').slice(0, 16),
			name: 'e2e sip secret',
		};
		const basicTrigger = node(
			'SIP Status',
			PACKAGE_NODE_TYPES.sipStatusTrigger,
			{ options: withE2eTolerance() },
			{
				typeVersion: SIP_TRIGGER_VERSION,
				credentials: { archiveSipWebhookApi: basicCredential },
				webhookId: randomUUID(),
			},
		);
		const basicWorkflow = chainWorkflow('e2e sip status', [
			basicTrigger,
			setFields('Mark', { seen: true }),
		]);

		beforeAll(async () => {
			n8n = await N8nInstance.create({ version, ...pkg });
			const credential = { id: newCredentialId(), name: 'e2e SIP signing secret' };
			await n8n.importCredentials([
				{
					...credential,
					type: 'archiveSipWebhookApi',
					data: { signingSecret, additionalSecrets: rotatedSecret },
				},
				{ ...basicCredential, type: 'archiveSipWebhookApi', data: { signingSecret: basicSecret } },
			]);
			const trigger = node(
				'SIP Status',
				PACKAGE_NODE_TYPES.sipStatusTrigger,
				{
					outcomes: 'both',
					outputMode: 'perOutcome',
					eventTypes: 'sipArchived',
					options: withE2eTolerance(),
				},
				{
					typeVersion: SIP_TRIGGER_VERSION,
					credentials: { archiveSipWebhookApi: credential },
					webhookId: randomUUID(),
				},
			);
			// A trigger with the longest tolerance: every production delivery in this test's lifetime is signed within
			// an hour of n8n's start, so it must be refused (and the workflow never run).
			const guarded = node(
				'SIP Status',
				PACKAGE_NODE_TYPES.sipStatusTrigger,
				{ options: withE2eTolerance({}, 3600) },
				{
					typeVersion: SIP_TRIGGER_VERSION,
					credentials: { archiveSipWebhookApi: credential },
					webhookId: randomUUID(),
				},
			);
			const guardedWorkflow = graphWorkflow('e2e SIP status just started', [guarded], []);
			guardedWorkflowId = guardedWorkflow.id;
			const workflow = graphWorkflow(
				'e2e SIP status branches',
				[
					trigger,
					setFields('On Success', { branch: 'success' }),
					setFields('On Failure', { branch: 'failure' }),
				],
				[
					{ from: 'SIP Status', to: 'On Success', output: 0 },
					{ from: 'SIP Status', to: 'On Failure', output: 1 },
				],
			);
			// One import for every workflow: each n8n CLI run costs seconds of CPU.
			await n8n.importWorkflows([guardedWorkflow, workflow, mentioning, basicWorkflow]);
			workflowId = workflow.id;
			await n8n.activate(guardedWorkflow.id, guardedWorkflow.name);
			await n8n.activate(workflow.id, workflow.name);
			await n8n.activate(basicWorkflow.id, basicWorkflow.name);
			mentioningRun = (await n8n.execute(mentioning.id)).run;
			await n8n.start();

			const url = `${n8n.baseUrl}/webhook/${trigger.webhookId}/sip-status`;
			// n8n parses a multipart body itself and keeps no raw bytes: the trigger must refuse it, not fail (500).
			const boundary = 'sip-boundary';
			multipart = await request(url, {
				method: 'POST',
				headers: {
					'content-type': `multipart/form-data; boundary=${boundary}`,
					'webhook-id': 'msg_multipart',
					'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
					'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
				},
				body: `--${boundary}\r\ncontent-disposition: form-data; name="event"\r\n\r\n{"type": "x.sip.archived"}\r\n--${boundary}--\r\n`,
			});
			justStarted = await send(
				`${n8n.baseUrl}/webhook/${guarded.webhookId}/sip-status`,
				buildSuccessEvent(),
				{ secrets: [signingSecret] },
			);
			// The tested trigger refuses too until n8n's start + its (short) tolerance.
			const waited = await waitPastStartRefusal(url, signingSecret);
			console.log(`n8n ${version}: refused after the start for ${waited.waitedMs} ms`);
			deliveries = await deliverScenario(url, signingSecret, rotatedSecret);
			// The rotated delivery is sent last: once its execution exists, every earlier delivery has
			// been answered, so any execution a refused or replayed one might have started is visible.
			executions = await n8n.waitForExecutions(workflowId, 3);
		});

		afterAll(async () => {
			await n8n?.dispose();
		});

		it('answers 204 to valid deliveries and 401 to tampered and stale ones', () => {
			expect(deliveries.success.result.status).toBe(204);
			expect(deliveries.failure.result.status).toBe(204);
			expect(deliveries.rotated.result.status).toBe(204);
			expect(deliveries.tampered.status).toBe(401);
			expect(deliveries.stale.status).toBe(401);
			expect(deliveries.success.result.responseBody).toBe('');
		});

		it('refuses production deliveries signed before start + Timestamp Tolerance with 503 and Retry-After, running nothing', async () => {
			expect(justStarted.status).toBe(503);
			const retryAfter = Number(justStarted.retryAfter);
			expect(retryAfter).toBeGreaterThanOrEqual(1);
			expect(retryAfter).toBeLessThanOrEqual(3601);
			expect(JSON.parse(justStarted.responseBody)).toEqual({
				error: expect.stringMatching(
					/^n8n started less than the Timestamp Tolerance \(3600 s\) ago: events signed before \S+Z are refused/,
				),
			});
			expect(await n8n.executions(guardedWorkflowId)).toEqual([]);
		});

		it('refuses a multipart body with 400 naming the content type to use', () => {
			expect(multipart.status).toBe(400);
			expect(JSON.parse(multipart.body)).toEqual({
				error: 'multipart bodies are not accepted: send the event as application/json',
			});
		});

		it('acknowledges a replay of an accepted id with 204 without running the workflow again', () => {
			expect(deliveries.replayed.status).toBe(204);
			expect(deliveries.replayed.id).toBe(deliveries.success.result.id);
		});

		it('records exactly one execution per accepted delivery, in webhook mode', async () => {
			const all = await n8n.executions(workflowId);

			expect(all).toHaveLength(3);
			expect(all.map(({ mode, status }) => ({ mode, status }))).toEqual(
				Array(3).fill({ mode: 'webhook', status: 'success' }),
			);
			// Sorted: n8n answers before it stores an execution, so ids need not follow send order.
			expect(executions.map(correlationIdOf).sort()).toEqual(
				[
					deliveries.success.event.data.correlation_id,
					deliveries.failure.event.data.correlation_id,
					deliveries.rotated.event.data.correlation_id,
				].sort(),
			);
		});

		it('emits the flattened success event on the Success output', () => {
			const data = executionFor(deliveries.success.event).data!;
			const [item] = nodeJson(data, 'SIP Status', { output: 0 });

			expect(item).toEqual({
				type: deliveries.success.event.type,
				timestamp: deliveries.success.event.timestamp,
				timestamp_utc: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
				correlation_id: deliveries.success.event.data.correlation_id,
				outcome: 'success',
				pid: deliveries.success.event.data.pid,
				message: null,
				webhook_id: deliveries.success.result.id,
				received_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
			});
			expect(nodeJson(data, 'SIP Status', { output: 1 })).toEqual([]);
			expect(nodeJson(data, 'On Success')).toEqual([{ branch: 'success' }]);
			expect(data.resultData.runData['On Failure']).toBeUndefined();
		});

		it('emits the failure event with its message on the Failure output', () => {
			const data = executionFor(deliveries.failure.event).data!;
			const [item] = nodeJson(data, 'SIP Status', { output: 1 });

			expect(item).toMatchObject({
				correlation_id: deliveries.failure.event.data.correlation_id,
				outcome: 'failure',
				pid: null,
				message: deliveries.failure.event.data.message,
				webhook_id: deliveries.failure.result.id,
			});
			expect(item.message).toMatch(/^sipin\.sip-2\.validate -- /);
			expect(nodeJson(data, 'On Failure')).toEqual([{ branch: 'failure' }]);
			expect(data.resultData.runData['On Success']).toBeUndefined();
		});

		it('pairs downstream items with the trigger item', () => {
			const data = executionFor(deliveries.success.event).data!;

			expect(nodeItems(data, 'On Success')[0].pairedItem).toEqual({ item: 0 });
		});

		it('keeps the signing secrets out of execution data, responses and the server log', async () => {
			const stored = JSON.stringify(await n8n.executions(workflowId));
			const responses = Object.values(deliveries)
				.map(
					(each: SendResult | { result: SendResult }) =>
						('result' in each ? each.result : each).responseBody,
				)
				.join('\n');

			for (const secret of [
				signingSecret,
				rotatedSecret,
				secretBody(signingSecret),
				secretBody(rotatedSecret),
			]) {
				expect(stored).not.toContain(secret);
				expect(responses).not.toContain(secret);
				expect(n8n.unredactedServerLog()).not.toContain(secret);
			}
		});

		function executionFor(event: StatusEvent): ExecutionRecord {
			const found = executions.find((each) => correlationIdOf(each) === event.data.correlation_id);
			if (!found) throw new Error(`no execution for ${event.data.correlation_id}`);
			return found;
		}

		describe('the package loaded by n8n', () => {
			it('resolves the package node type, which n8n without the package refuses', async () => {
				expect(nodeJson(mentioningRun.data, 'Set')).toEqual([{ ran: true }]);

				const bare = await N8nInstance.create({ version, packageMode: 'none' });
				try {
					await bare.importWorkflow(mentioning);
					await expect(bare.execute(mentioning.id)).rejects.toThrow(
						/Unrecognized node type|not known/i,
					);
				} finally {
					await bare.dispose();
				}
			});

			it('runs an active SIP status trigger on a signed delivery and refuses an unsigned one', async () => {
				// A trigger webhook's production URL is /webhook/<webhookId>/<path from its description>.
				const url = `${n8n.baseUrl}/webhook/${basicTrigger.webhookId}/sip-status`;
				// Every production delivery signed up to n8n's start + the tolerance is refused (503).
				await waitPastStartRefusal(url, basicSecret);
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
						'webhook-signature': new Webhook(basicSecret).sign(messageId, now, body),
					},
					body,
				});
				const unsigned = await postJson(url, JSON.parse(body) as unknown);
				const basicExecutions = await n8n.waitForExecutions(basicWorkflow.id, 1);

				expect(signed.status).toBe(204);
				expect(unsigned.status).toBe(401);
				expect(unsigned.body).not.toContain(basicSecret);
				expect(basicExecutions).toHaveLength(1);
				expect(basicExecutions[0]).toMatchObject({ mode: 'webhook', status: 'success' });
				const [event] = nodeJson(basicExecutions[0].data!, 'SIP Status');
				expect(event.correlation_id).toBe(
					(JSON.parse(body) as { data: { correlation_id: string } }).data.correlation_id,
				);
				expect(n8n.serverLog()).not.toContain(basicSecret);
			});
		});
	},
);

async function deliverScenario(
	url: string,
	signingSecret: string,
	rotatedSecret: string,
): Promise<Deliveries> {
	const successEvent = buildSuccessEvent({ type: 'service.sip.archived' });
	const failureEvent = buildFailureEvent({ reason: 'e2e: checksum mismatch' });
	const rotatedEvent = buildSuccessEvent();
	const secrets = [signingSecret];
	// Sequential on purpose: the replay must follow the accepted original.
	const success = await send(url, successEvent, { secrets });
	const failure = await send(url, failureEvent, { secrets });
	const tampered = await send(url, buildSuccessEvent(), { secrets, tamper: true });
	const replayed = await send(url, successEvent, {
		secrets,
		id: success.id,
		timestamp: success.timestamp,
	});
	const stale = await send(url, buildSuccessEvent(), { secrets, staleSeconds: 600 });
	const rotated = await send(url, rotatedEvent, { secrets: [rotatedSecret] });
	return {
		success: { event: successEvent, result: success },
		failure: { event: failureEvent, result: failure },
		tampered,
		replayed,
		stale,
		rotated: { event: rotatedEvent, result: rotated },
	};
}

function correlationIdOf(execution: ExecutionRecord): unknown {
	const runs = execution.data?.resultData.runData['SIP Status'] ?? [];
	const outputs = runs[0]?.data?.main ?? [];
	return outputs.flatMap((items) => items ?? [])[0]?.json.correlation_id;
}

/** The base64 part of a `whsec_` secret, which is what an HMAC key leak would show. */
function secretBody(secret: string): string {
	return secret.replace(/^whsec_/, '');
}
