/**
 * "Respond: After the Event Is Saved": the 2xx comes from the execution n8n saved (responseMode responseNode, the
 * trigger's own execute() answers), and the replay record agrees with it: an id whose delivery never got its 2xx runs
 * when retried, an id that was answered never runs again. Each "process" is an isolated copy of the node module
 * behind its own loopback server; they share n8n's workflow row (static data) as the processes of one n8n do.
 */
import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import {
	postRaw,
	startWebhookHarness,
	type ExecutionFault,
	type HttpAnswer,
	type WebhookHarness,
} from '../../../dev/harness/webhook';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE_NAME,
	signedHeaders,
	sipEventBody,
} from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';
import {
	IN_FLIGHT_WAIT_MS,
	MAX_SHARING_RETRIES,
	MAX_WAITING_RETRIES,
	SENDER_GONE_GRACE_MS,
} from '../../../nodes/ArchiveSipStatusTrigger/inFlight';
import { loadIsolatedNodeType } from './triggerSetup';

const SECRET = generateSecret();
const AFTER_SAVED: INodeParameters = { respond: 'afterSaved' };

interface WorkflowRow {
	staticData: IDataObject;
}

const started: WebhookHarness[] = [];
let workflowCounter = 0;

afterEach(async () => {
	await Promise.all(started.splice(0).map((each) => each.close()));
});

function newWorkflow(): { row: WorkflowRow; workflowId: string } {
	workflowCounter += 1;
	return { row: { staticData: {} }, workflowId: `after-saved-${workflowCounter}` };
}

/** One n8n process (fresh module memory, as after a restart) on the shared workflow row. */
async function startProcess(
	{ row, workflowId }: { row: WorkflowRow; workflowId: string },
	{
		parameters = AFTER_SAVED,
		fault,
		executionNodeType,
		credentialRead,
		startedAtMs,
	}: {
		startedAtMs?: number;
		parameters?: INodeParameters;
		fault?: (call: number) => ExecutionFault | Promise<ExecutionFault>;
		executionNodeType?: INodeType;
		credentialRead?: () => Promise<void>;
	} = {},
): Promise<WebhookHarness> {
	const harness = await startWebhookHarness(loadIsolatedNodeType(startedAtMs), {
		nodeTypeName: NODE_TYPE_NAME,
		credentials: { [CREDENTIAL_TYPE]: { signingSecret: SECRET } },
		workflowId,
		parameters,
		sharedStaticData: row,
		executionFault: fault,
		executionNodeType,
		credentialRead,
	});
	started.push(harness);
	return harness;
}

/** A sender attempt: fresh timestamp and signature, the given id. Status 0 when no answer came. */
async function deliver(
	harness: WebhookHarness,
	id: string,
	body = sipEventBody(),
): Promise<HttpAnswer> {
	const headers = signedHeaders(SECRET, id, Math.floor(Date.now() / 1000), body);
	return await postRaw(harness.url, body, headers).catch(() => ({
		status: 0,
		headers: {},
		body: '',
	}));
}

function executionsOf(...harnesses: WebhookHarness[]): number {
	return harnesses.reduce((sum, each) => sum + each.runs().length, 0);
}

/** Resolves the returned promise's fault when `release` is called: holds a delivery where n8n saves the execution. */
function gate(): { fault: Promise<ExecutionFault>; release: (fault: ExecutionFault) => void } {
	let release!: (fault: ExecutionFault) => void;
	const fault = new Promise<ExecutionFault>((resolve) => {
		release = resolve;
	});
	return { fault, release };
}

describe('Respond: After the Event Is Saved', () => {
	it('answers 204 from the saved execution, not from webhook(), with the event on its outcome output', async () => {
		const process = await startProcess(newWorkflow(), {
			parameters: { ...AFTER_SAVED, outputMode: 'perOutcome' },
		});

		const answer = await deliver(process, 'msg_saved_1', sipEventBody({ outcome: 'failure' }));

		expect(answer).toMatchObject({ status: 204, body: '' });
		expect(process.calls[0].result.noWebhookResponse).toBeUndefined();
		const [outputs] = process.runs();
		expect(outputs.map((items) => items.map((item) => item.json.outcome))).toEqual([
			[],
			['failure'],
		]);
		expect(outputs[1][0].pairedItem).toEqual({ item: 0 });
	});

	it('Immediately: n8n answers 204 once it saved the execution (as 2.x does), 500 when it cannot, and the retry runs', async () => {
		const process = await startProcess(newWorkflow(), {
			parameters: {},
			fault: (call) => (call === 0 ? 'failToSave' : 'run'),
		});

		expect((await deliver(process, 'msg_immediate_1')).status).toBe(500);
		expect(executionsOf(process)).toBe(0);
		expect((await deliver(process, 'msg_immediate_1')).status).toBe(204);
		// n8n's own answer (the webhook's responseCode 204, no data), not one written by webhook().
		expect(process.calls[1].result.noWebhookResponse).toBeUndefined();
		expect(executionsOf(process)).toBe(1);
		// Answered: a later retry is a replay and starts nothing.
		expect((await deliver(process, 'msg_immediate_1')).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it('answers 500 when n8n cannot save the execution, and runs the retry', async () => {
		const process = await startProcess(newWorkflow(), {
			fault: (call) => (call === 0 ? 'failToSave' : 'run'),
		});

		expect((await deliver(process, 'msg_fail_1')).status).toBe(500);
		expect(executionsOf(process)).toBe(0);
		expect((await deliver(process, 'msg_fail_1')).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it('runs the retry after n8n died before saving the execution (restarted process)', async () => {
		const workflow = newWorkflow();
		const crashed = await startProcess(workflow, { fault: () => 'crashBeforeSave' });
		expect((await deliver(crashed, 'msg_crash_1')).status).toBe(0);

		const restarted = await startProcess(workflow);
		expect((await deliver(restarted, 'msg_crash_1')).status).toBe(204);
		expect(executionsOf(crashed, restarted)).toBe(1);
	});

	it('runs again (a duplicate, never a loss) when n8n died after saving the execution but before answering', async () => {
		const workflow = newWorkflow();
		const crashed = await startProcess(workflow, { fault: () => 'crashAfterSave' });
		expect((await deliver(crashed, 'msg_crash_2')).status).toBe(0);

		const restarted = await startProcess(workflow);
		expect((await deliver(restarted, 'msg_crash_2')).status).toBe(204);
		expect(executionsOf(crashed, restarted)).toBe(2);
	});

	it('runs the retry, in either process, when the saved execution failed before the trigger ran and n8n saved static data with its 500', async () => {
		const workflow = newWorkflow();
		const failing = await startProcess(workflow, {
			fault: (call) => (call === 0 ? 'failBeforeTrigger' : 'run'),
		});
		const other = await startProcess(workflow);

		expect((await deliver(failing, 'msg_failed_run_1')).status).toBe(500);
		expect(executionsOf(failing, other)).toBe(0);
		expect((await deliver(other, 'msg_failed_run_1')).status).toBe(204);
		expect(executionsOf(failing, other)).toBe(1);

		expect((await deliver(failing, 'msg_failed_run_2')).status).toBe(204);
		expect(executionsOf(failing, other)).toBe(2);
	});

	it('never runs an answered id again in its process; a copy of it at a process started later is refused', async () => {
		const workflow = newWorkflow();
		const first = await startProcess(workflow);
		const body = sipEventBody();
		const headers = signedHeaders(SECRET, 'msg_answered_1', Math.floor(Date.now() / 1000), body);
		expect((await postRaw(first.url, body, headers)).status).toBe(204);
		expect((await postRaw(first.url, body, headers)).status).toBe(204);
		expect((await deliver(first, 'msg_answered_1')).status).toBe(204);

		// A process whose record began after the delivery was signed cannot tell it was accepted: it refuses it.
		const later = await startProcess(workflow, { startedAtMs: Date.now() });
		expect((await postRaw(later.url, body, headers)).status).toBe(503);
		expect(executionsOf(first, later)).toBe(1);
	});

	it('holds a retry while the first delivery still waits for its execution, and answers it 204 as a replay once the first is answered: runs once', async () => {
		const held = gate();
		const process = await startProcess(newWorkflow(), {
			fault: (call) => (call === 0 ? held.fault : 'run'),
		});

		const first = deliver(process, 'msg_inflight_1');
		await waitUntil(() => process.calls.length === 1);
		const retry = await retryWaiting(() => deliver(process, 'msg_inflight_1'));
		held.release('run');

		expect((await first).status).toBe(204);
		expect((await retry.answer).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
		expect((await deliver(process, 'msg_inflight_1')).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it('holds only a delivery whose signature verified: a copy of an id in flight with a wrong signature is answered 401 at once, and the genuine retry still waits and is a replay', async () => {
		const held = gate();
		const process = await startProcess(newWorkflow(), {
			fault: (call) => (call === 0 ? held.fault : 'run'),
		});
		const first = deliver(process, 'msg_inflight_forged');
		await waitUntil(() => process.calls.length === 1);

		// Same webhook-id and body, signed with a secret the trigger does not hold.
		const body = sipEventBody();
		const forgedHeaders = signedHeaders(
			generateSecret(),
			'msg_inflight_forged',
			Math.floor(Date.now() / 1000),
			body,
		);
		const startedAt = performance.now();
		const forged = await postRaw(process.url, body, forgedHeaders);
		expect(forged.status).toBe(401);
		expect(JSON.parse(forged.body)).toEqual({ error: 'no valid webhook signature' });
		// A held copy would wait up to IN_FLIGHT_WAIT_MS for the first delivery's answer.
		expect(performance.now() - startedAt).toBeLessThan(Math.min(2_000, IN_FLIGHT_WAIT_MS / 5));

		const retry = await retryWaiting(() => deliver(process, 'msg_inflight_forged'));
		held.release('run');

		expect((await first).status).toBe(204);
		expect((await retry.answer).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it(`copies of one delivery in flight share its wait: ${MAX_WAITING_RETRIES} and more of them leave a retry of another event waiting, not refused`, async () => {
		const held = gate();
		const process = await startProcess(newWorkflow(), {
			fault: (call) => (call < 2 ? held.fault : 'run'),
		});
		const firstA = deliver(process, 'msg_inflight_a');
		const firstB = deliver(process, 'msg_inflight_b');
		await waitUntil(() => process.calls.length === 2);

		const copiesOfA = await retryWaiting(() =>
			Promise.all(
				Array.from({ length: MAX_WAITING_RETRIES + 1 }, () => deliver(process, 'msg_inflight_a')),
			),
		);
		const retryOfB = await retryWaiting(() => deliver(process, 'msg_inflight_b'));
		held.release('run');

		expect([(await firstA).status, (await firstB).status]).toEqual([204, 204]);
		expect((await retryOfB.answer).status).toBe(204);
		expect((await copiesOfA.answer).map((answer) => answer.status)).toEqual(
			Array.from({ length: MAX_WAITING_RETRIES + 1 }, () => 204),
		);
		expect(executionsOf(process)).toBe(2);
	});

	it(`holds the retries of at most ${MAX_WAITING_RETRIES} deliveries at once: a retry of one more is answered 409 at once`, async () => {
		const held = gate();
		const ids = Array.from({ length: MAX_WAITING_RETRIES + 1 }, (_, index) => `msg_slot_${index}`);
		const process = await startProcess(newWorkflow(), {
			fault: (call) => (call < ids.length ? held.fault : 'run'),
		});
		const firsts = ids.map((id) => deliver(process, id));
		await waitUntil(() => process.calls.length === ids.length);

		const waiting = await retryWaiting(() =>
			Promise.all(ids.slice(0, MAX_WAITING_RETRIES).map((id) => deliver(process, id))),
		);
		const beyond = await deliver(process, ids[MAX_WAITING_RETRIES]);
		expect(beyond.status).toBe(409);
		expect(beyond.headers['retry-after']).toBe('5');
		held.release('run');

		expect((await Promise.all(firsts)).every((answer) => answer.status === 204)).toBe(true);
		expect((await waiting.answer).every((answer) => answer.status === 204)).toBe(true);
		expect(executionsOf(process)).toBe(ids.length);
	});

	it(`lets at most ${MAX_SHARING_RETRIES} copies share a wait: one more is answered 409 at once`, async () => {
		const held = gate();
		const process = await startProcess(newWorkflow(), {
			fault: (call) => (call === 0 ? held.fault : 'run'),
		});
		const first = deliver(process, 'msg_inflight_copies');
		await waitUntil(() => process.calls.length === 1);

		const waiting = await retryWaiting(() =>
			Promise.all(
				Array.from({ length: MAX_SHARING_RETRIES + 1 }, () =>
					deliver(process, 'msg_inflight_copies'),
				),
			),
		);
		const beyond = await deliver(process, 'msg_inflight_copies');
		expect(beyond.status).toBe(409);
		held.release('run');

		expect((await first).status).toBe(204);
		expect((await waiting.answer).every((answer) => answer.status === 204)).toBe(true);
		expect(executionsOf(process)).toBe(1);
	});

	it('keeps the id in flight when the sender gave up waiting, until its execution reports: retries start nothing more', async () => {
		const { held, process } = await firstDeliveryHeld();
		// n8n is slow to save the execution: the sender gives up on the attempt (its timeout) and will retry.
		await giveUp(process, 'msg_gone_1');
		// The execution is still on its way: a retry waits for it instead of running it again.
		const retry = await retryWaiting(() => deliver(process, 'msg_gone_1'));

		held.release('run');
		// Its execution ran the trigger: the id counts as accepted, and the waiting retry is a replay.
		expect((await retry.answer).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
		expect((await deliver(process, 'msg_gone_1')).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it('accepts an id whose sender gave up before webhook() ran (n8n slow under load), once its execution ran: retries are replays', async () => {
		// n8n reaches the node only after the sender's timeout: the request is already closed when webhook() holds it.
		const credentialRead = gate();
		let reads = 0;
		const process = await startProcess(newWorkflow(), {
			credentialRead: async () => {
				reads += 1;
				if (reads === 1) await credentialRead.fault;
			},
		});
		const body = sipEventBody();
		const headers = signedHeaders(SECRET, 'msg_gone_early', Math.floor(Date.now() / 1000), body);
		await expect(postRaw(process.url, body, headers, 200)).rejects.toThrow(/gave up/);
		// The request is closed before the node goes on.
		await waitUntil(() => reads === 1 && process.requestsClosed() === 1);
		credentialRead.release('run');
		await waitUntil(() => executionsOf(process) === 1);
		await settled();

		expect((await deliver(process, 'msg_gone_early')).status).toBe(204);
		expect((await deliver(process, 'msg_gone_early')).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it('releases an id at once when n8n answers its gone sender non-2xx (the execution was not saved): the retry runs', async () => {
		const { held, process } = await firstDeliveryHeld();
		await giveUp(process, 'msg_gone_2');
		const retry = await retryWaiting(() => deliver(process, 'msg_gone_2'));

		// n8n fails to save it and writes its 500 to the request whose sender left: the waiting retry runs.
		held.release('failToSave');

		expect((await retry.answer).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
		expect((await deliver(process, 'msg_gone_2')).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it('releases an id whose sender gave up and that n8n never answered, after the grace period: the retry runs', async () => {
		const { held, process } = await firstDeliveryHeld();
		await giveUp(process, 'msg_gone_3');

		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now + SENDER_GONE_GRACE_MS - 1_000);
		try {
			// Still within the grace: the retry waits its while for n8n's answer, then is told to come back later.
			const startedAt = performance.now();
			const retry = await deliver(process, 'msg_gone_3');
			expect(retry.status).toBe(409);
			expect(retry.headers['retry-after']).toBe('5');
			expect(performance.now() - startedAt).toBeGreaterThanOrEqual(IN_FLIGHT_WAIT_MS - 100);
			clock.mockReturnValue(now + SENDER_GONE_GRACE_MS + 1_000);
			expect((await deliver(process, 'msg_gone_3')).status).toBe(204);
		} finally {
			clock.mockRestore();
		}
		expect(executionsOf(process)).toBe(1);
		// What n8n held ends without a word (its process would have died, or its queue job was lost).
		held.release('crashBeforeSave');
	});

	it('queue mode: the worker ran the trigger after the sender gave up; n8n relays its 204 to the processor, and retries are replays', async () => {
		// The execution runs on a worker: its execute() shares no memory with the processor's webhook().
		const { held, process } = await firstDeliveryHeld({ onWorker: true });
		await giveUp(process, 'msg_worker_1');
		const retry = await retryWaiting(() => deliver(process, 'msg_worker_1'));

		held.release('run');
		expect((await retry.answer).status).toBe(204);
		await waitUntil(() => executionsOf(process) === 1);
		await settled();

		expect((await deliver(process, 'msg_worker_1')).status).toBe(204);
		expect((await deliver(process, 'msg_worker_1')).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});

	it('queue mode: an answer relayed after the grace period released the id records it again, so later retries are replays', async () => {
		const { held, process } = await firstDeliveryHeld({ onWorker: true });
		await giveUp(process, 'msg_worker_2');
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now + SENDER_GONE_GRACE_MS + 1_000);
		try {
			// Another event: the process looks at overdue ids first and releases this one.
			expect((await deliver(process, 'msg_worker_other')).status).toBe(204);
		} finally {
			clock.mockRestore();
		}
		// The backlog cleared after all: the worker runs it and n8n relays the 204.
		held.release('run');
		await waitUntil(() => executionsOf(process) === 2);
		await settled();

		expect((await deliver(process, 'msg_worker_2')).status).toBe(204);
		expect(executionsOf(process)).toBe(2);
	});

	it('does not let a concurrent delivery record an id whose execution was never saved', async () => {
		const workflow = newWorkflow();
		const held = gate();
		const first = await startProcess(workflow, {
			fault: (call) => (call === 0 ? held.fault : 'run'),
		});

		const failing = deliver(first, 'msg_repair_failed');
		await waitUntil(() => first.calls.length === 1);
		// Another event is accepted and saved by the same process meanwhile: its static data save must not carry the
		// still-unsaved id along (as the re-assertion of ids overwritten by concurrent saves would).
		expect((await deliver(first, 'msg_repair_other')).status).toBe(204);
		held.release('failToSave');
		expect((await failing).status).toBe(500);
		expect((await deliver(first, 'msg_repair_next')).status).toBe(204);

		const other = await startProcess(workflow);
		expect((await deliver(other, 'msg_repair_failed')).status).toBe(204);
		expect(executionsOf(first, other)).toBe(3);
	});
});

/**
 * A process whose first delivery n8n holds where it saves the execution, until `held.release`; `onWorker` runs the
 * executions on a queue-mode worker's own copy of the node.
 */
async function firstDeliveryHeld({ onWorker = false }: { onWorker?: boolean } = {}) {
	const held = gate();
	const process = await startProcess(newWorkflow(), {
		fault: (call) => (call === 0 ? held.fault : 'run'),
		executionNodeType: onWorker ? loadIsolatedNodeType() : undefined,
	});
	return { held, process };
}

/** A sender attempt that gives up before n8n answers (its timeout while n8n is slow); n8n holds the delivery. */
async function giveUp(process: WebhookHarness, id: string): Promise<void> {
	const body = sipEventBody();
	const headers = signedHeaders(SECRET, id, Math.floor(Date.now() / 1000), body);
	const calls = process.calls.length;
	const closed = process.requestsClosed();
	await expect(postRaw(process.url, body, headers, 200)).rejects.toThrow(/gave up/);
	// webhook() returned, and the node saw the sender leave.
	await waitUntil(() => process.calls.length === calls + 1 && process.requestsClosed() > closed);
}

/**
 * Starts a retry of an id in flight and checks that, a moment later, it still waits for n8n's answer to the held
 * delivery (a retry that did not wait would have its 409 by then). Wrapped, so awaiting this does not await the answer.
 */
async function retryWaiting<T>(send: () => Promise<T>): Promise<{ answer: Promise<T> }> {
	let answered = false;
	const answer = send().finally(() => {
		answered = true;
	});
	await new Promise((resolve) => setTimeout(resolve, 500));
	expect(answered).toBe(false);
	return { answer };
}

/** Lets n8n's late answer to a closed request, and what it sets off, run. */
async function settled(): Promise<void> {
	for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function waitUntil(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('filtered-out events, After the Event Is Saved', () => {
	it('answers 204 from the execution with the event on Filtered Out, and a redelivery is a replay', async () => {
		const workflow = newWorkflow();
		const parameters = {
			...AFTER_SAVED,
			eventTypes: 'custom',
			customEventTypes: 'service.sip.archived',
			options: { sendFilteredOut: true },
		};
		const first = await startProcess(workflow, { parameters });
		const body = sipEventBody({ type: 'meemoo.ie.created' });
		expect((await deliver(first, 'msg_saved_filtered', body)).status).toBe(204);
		expect(first.calls[0].result.noWebhookResponse).toBeUndefined();
		expect((await deliver(first, 'msg_saved_filtered', body)).status).toBe(204);
		expect(first.runs().map((run) => run.map((items) => items.length))).toEqual([[0, 1]]);
		expect(executionsOf(first)).toBe(1);
	});

	it('answers 204 at once without an execution when the Filtered Out output is off', async () => {
		const process = await startProcess(newWorkflow(), {
			parameters: {
				...AFTER_SAVED,
				eventTypes: 'custom',
				customEventTypes: 'service.sip.archived',
			},
		});
		const body = sipEventBody({ type: 'meemoo.ie.created' });
		expect((await deliver(process, 'msg_saved_dropped', body)).status).toBe(204);
		expect(executionsOf(process)).toBe(0);
	});
});

describe('a non-ASCII webhook-id', () => {
	/** Node's HTTP client writes header values as UTF-8 (and takes only characters up to U+00FF). */
	const ID_TEXT = 'msg_éü_1';

	/** A sender attempt whose signature covers the id's bytes as sent (`<id>.<timestamp>.<body>`). */
	async function deliverRawId(
		harness: WebhookHarness,
		text: string,
		timeoutMs?: number,
	): Promise<HttpAnswer> {
		const body = sipEventBody();
		// The library signs the UTF-8 bytes of `<id>.<timestamp>.<body>`: the id's bytes as sent.
		const headers = signedHeaders(SECRET, text, Math.floor(Date.now() / 1000), body);
		return await postRaw(harness.url, body, headers, timeoutMs);
	}

	it.each([
		['Immediately', { respond: 'immediately' }],
		['After the Event Is Saved', AFTER_SAVED],
	])(
		'%s: is output as text, and its redelivery is a replay',
		async (_mode, parameters: INodeParameters) => {
			const first = await startProcess(newWorkflow(), { parameters });

			expect((await deliverRawId(first, ID_TEXT)).status).toBe(204);
			expect((await deliverRawId(first, ID_TEXT)).status).toBe(204);
			expect((await deliverRawId(first, ID_TEXT)).status).toBe(204);
			expect(executionsOf(first)).toBe(1);
			const [run] = first.runs();
			expect(run[0][0].json.webhook_id).toBe(ID_TEXT);
		},
	);

	it('After the Event Is Saved: an id whose sender gave up is accepted once its execution ran, so the retry is a replay', async () => {
		const held = gate();
		const process = await startProcess(newWorkflow(), {
			fault: (call) => (call === 0 ? held.fault : 'run'),
		});
		const id = 'msg_gone_ü';
		await expect(deliverRawId(process, id, 200)).rejects.toThrow(/gave up/);
		await waitUntil(() => process.calls.length === 1);
		const retry = await retryWaiting(() => deliverRawId(process, id));

		held.release('run');
		expect((await retry.answer).status).toBe(204);
		await waitUntil(() => executionsOf(process) === 1);
		expect((await deliverRawId(process, id)).status).toBe(204);
		expect(executionsOf(process)).toBe(1);
	});
});
