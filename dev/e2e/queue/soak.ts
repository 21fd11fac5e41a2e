import { createHash, randomUUID } from 'node:crypto';

import { request, type HttpResponse } from '../../n8n/http';
import { newCredentialId, packageUnderTest } from '../../n8n/package';
import { COMPRESSED_RETRY_SECONDS, EventSink, receiverWorkflow } from '../lib/fault-burst';
import { QueueCluster } from './cluster';
import { percentile } from './figures';
import { queueVersions } from './selection';
import { newMessageId, newSigningSecret, signedHeaders, sipEvent, type Delivery } from './sip';

// Issue 23 item 6: the SIP trigger under sustained volume in real n8n queue mode (2 webhook processors, 2 workers),
// no faults. Signed events at a steady rate, each sent to the processor a load balancer hashing `webhook-id` picks;
// a share of them sent again by the sender after their 2xx (an answer lost on the way), a share replayed byte for
// byte by an attacker later (the trigger's Timestamp Tolerance is set to 1 hour, the most it allows, so the replay
// record, not the timestamp, must refuse them). Every event must run exactly once. Prints the first and last
// thousand events' latency side by side. Needs `npm run build` first.
//   node scripts/run-ts.js dev/e2e/queue/soak.ts
//   SOAK_EVENTS (20000), SOAK_RATE (events/s, 8), SOAK_RETRY_SHARE (0.05), SOAK_REPLAY_SHARE (0.01),
//   SOAK_REPLAY_AFTER_S (600), SOAK_RESPOND (afterSaved | immediately), E2E_QUEUE_N8N_VERSIONS

interface SoakSettings {
	events: number;
	ratePerSecond: number;
	retryShare: number;
	replayShare: number;
	replayAfterMs: number;
	respond: 'afterSaved' | 'immediately';
}

function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): SoakSettings {
	const number = (name: string, fallback: number) => {
		const value = Number(env[name] ?? fallback);
		if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0`);
		return value;
	};
	const respond = env.SOAK_RESPOND ?? 'afterSaved';
	if (respond !== 'afterSaved' && respond !== 'immediately')
		throw new Error('SOAK_RESPOND must be afterSaved or immediately');
	return {
		events: number('SOAK_EVENTS', 20_000),
		ratePerSecond: number('SOAK_RATE', 8) || 8,
		retryShare: number('SOAK_RETRY_SHARE', 0.05),
		replayShare: number('SOAK_REPLAY_SHARE', 0.01),
		replayAfterMs: number('SOAK_REPLAY_AFTER_S', 600) * 1000,
		respond,
	};
}

/** The real sender gives up on an attempt after 15 s. */
const ATTEMPT_TIMEOUT_MS = 15_000;

interface EventOutcome {
	id: string;
	/** Latency of the first attempt (ms); NaN when it got no answer. */
	firstLatencyMs: number;
	/** Status of each attempt until the first 2xx (0: no answer). */
	attempts: number[];
	answered: boolean;
	/** The sender's extra attempt after the 2xx, and the attacker's copy: their statuses, when sent. */
	retryAfterAnswer?: number;
	replay?: number;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One attempt; status 0 when no answer came within the sender's timeout. */
async function attempt(
	url: string,
	headers: Record<string, string>,
	body: string,
): Promise<{ status: number; latencyMs: number }> {
	const started = performance.now();
	const answer: HttpResponse | undefined = await request(url, {
		method: 'POST',
		headers,
		body,
		timeoutMs: ATTEMPT_TIMEOUT_MS,
	}).catch(() => undefined);
	return { status: answer?.status ?? 0, latencyMs: performance.now() - started };
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** One event as the archive's sender delivers it, plus the extra attempts the soak asks for. */
async function deliverEvent(
	url: string,
	secret: string,
	delivery: Delivery,
	extras: { retryAfterAnswer: boolean; replayAfterMs?: number },
): Promise<EventOutcome> {
	const outcome: EventOutcome = {
		id: delivery.id,
		firstLatencyMs: Number.NaN,
		attempts: [],
		answered: false,
	};
	let captured: Record<string, string> | undefined;
	for (let index = 0; index <= COMPRESSED_RETRY_SECONDS.length; index++) {
		const headers = signedHeaders(secret, delivery);
		captured ??= headers;
		const { status, latencyMs } = await attempt(url, headers, delivery.body);
		if (index === 0 && status !== 0) outcome.firstLatencyMs = latencyMs;
		outcome.attempts.push(status);
		if (is2xx(status)) {
			outcome.answered = true;
			break;
		}
		if (index < COMPRESSED_RETRY_SECONDS.length)
			await sleep(COMPRESSED_RETRY_SECONDS[index] * 1000);
	}
	if (outcome.answered && extras.retryAfterAnswer) {
		// The 2xx was lost on its way back: the sender tries again, signed afresh.
		await sleep(Math.random() * 5_000);
		outcome.retryAfterAnswer = (
			await attempt(url, signedHeaders(secret, delivery), delivery.body)
		).status;
	}
	if (extras.replayAfterMs !== undefined && captured) {
		await sleep(extras.replayAfterMs);
		outcome.replay = (await attempt(url, captured, delivery.body)).status;
	}
	return outcome;
}

/** The processor a load balancer hashing `webhook-id` picks, of `count`. */
function processorFor(id: string, count: number): number {
	return createHash('sha256').update(id).digest()[0] % count;
}

function latencySummary(outcomes: EventOutcome[]): { p50: number; p99: number; count: number } {
	const latencies = outcomes.map((each) => each.firstLatencyMs).filter(Number.isFinite);
	return {
		p50: Math.round(percentile(latencies, 0.5)),
		p99: Math.round(percentile(latencies, 0.99)),
		count: latencies.length,
	};
}

async function waitUntilSettled(cluster: QueueCluster, workflowId: string): Promise<void> {
	// Executions keep coming while the queue drains: done once none is open and the count held still for 10 s.
	let previous = -1;
	for (;;) {
		const all = await cluster.executions(workflowId);
		const open = all.filter((each) => ['new', 'running', 'waiting'].includes(each.status)).length;
		if (open === 0 && all.length === previous) return;
		previous = all.length;
		await sleep(10_000);
	}
}

async function soakVersion(version: string, settings: SoakSettings): Promise<string> {
	const secret = newSigningSecret();
	const cluster = await QueueCluster.create({ version, ...packageUnderTest() });
	const sink = await EventSink.start();
	try {
		const credential = { id: newCredentialId(), name: 'soak signing secret' };
		await cluster.importCredentials([
			{ ...credential, type: 'archiveSipWebhookApi', data: { signingSecret: secret } },
		]);
		const receiver = receiverWorkflow(
			settings.respond,
			cluster.webhookBaseUrls[0],
			credential,
			sink.url,
		);
		const trigger = receiver.workflow.nodes.find((each) => each.name === 'SIP Status');
		if (!trigger) throw new Error('the receiver workflow has no SIP Status node');
		trigger.parameters = { ...trigger.parameters, options: { toleranceSeconds: 3600 } };
		await cluster.importWorkflow(receiver.workflow);
		await cluster.activate(receiver.workflow.id, receiver.workflow.name);
		await cluster.start();

		const processors = cluster.webhookBaseUrls;
		const spacingMs = 1000 / settings.ratePerSecond;
		const started = performance.now();
		const pending: Promise<EventOutcome>[] = [];
		for (let index = 0; index < settings.events; index++) {
			const due = started + index * spacingMs;
			const wait = due - performance.now();
			if (wait > 0) await sleep(wait);
			if (index > 0 && index % 1000 === 0) console.log(`soak: ${index} events sent`);
			const delivery = { id: newMessageId(), body: sipEvent(`soak-${randomUUID()}`) };
			const url = `${processors[processorFor(delivery.id, processors.length)]}${receiver.path}`;
			pending.push(
				deliverEvent(url, secret, delivery, {
					retryAfterAnswer: Math.random() < settings.retryShare,
					replayAfterMs: Math.random() < settings.replayShare ? settings.replayAfterMs : undefined,
				}),
			);
		}
		const sendingSeconds = (performance.now() - started) / 1000;
		console.log(
			`soak: ${settings.events} events sent in ${Math.round(sendingSeconds)} s; waiting for answers`,
		);
		const outcomes = await Promise.all(pending);
		console.log(
			`soak: ${outcomes.filter((each) => each.answered).length} answered 2xx; waiting for the queue to drain`,
		);
		await waitUntilSettled(cluster, receiver.workflow.id);
		const executions = await cluster.executions(receiver.workflow.id);
		const runs = sink.runsPerId();

		const ids = new Set(outcomes.map((each) => each.id));
		const exactlyOnce = outcomes.filter((each) => runs.get(each.id) === 1).length;
		const notRun = outcomes.filter((each) => !runs.has(each.id)).length;
		const ranTwice = outcomes.filter((each) => (runs.get(each.id) ?? 0) > 1).length;
		const foreign = [...runs.keys()].filter((id) => !ids.has(id)).length;
		const retries = outcomes.filter((each) => each.retryAfterAnswer !== undefined);
		const replays = outcomes.filter((each) => each.replay !== undefined);
		const first = latencySummary(outcomes.slice(0, 1000));
		const last = latencySummary(outcomes.slice(-1000));
		const statuses: Record<string, number> = {};
		for (const each of executions) statuses[each.status] = (statuses[each.status] ?? 0) + 1;
		const figures = {
			version,
			respond: settings.respond,
			events: settings.events,
			rate: settings.ratePerSecond,
			sendingSeconds: Math.round(sendingSeconds),
			answered: outcomes.filter((each) => each.answered).length,
			attemptsBeyondFirst: outcomes.reduce((sum, each) => sum + each.attempts.length - 1, 0),
			exactlyOnce,
			notRun,
			ranTwice,
			foreign,
			executions: executions.length,
			executionStatuses: statuses,
			retriesAfterAnswer: retries.length,
			retriesAnswered2xx: retries.filter((each) => is2xx(each.retryAfterAnswer ?? 0)).length,
			replays: replays.length,
			replaysAnswered2xx: replays.filter((each) => is2xx(each.replay ?? 0)).length,
			firstThousand: first,
			lastThousand: last,
			p99Ratio: Number((last.p99 / first.p99).toFixed(2)),
		};
		console.log(`soak ${JSON.stringify(figures)}`);
		return `| ${version} | ${settings.respond} | ${settings.events} at ${settings.ratePerSecond}/s | ${exactlyOnce} | ${notRun} | ${ranTwice} | ${figures.retriesAnswered2xx}/${retries.length} | ${figures.replaysAnswered2xx}/${replays.length} | ${first.p50} / ${first.p99} | ${last.p50} / ${last.p99} | ${figures.p99Ratio} |`;
	} finally {
		await cluster.dispose();
		await sink.close();
	}
}

async function main(): Promise<void> {
	const settings = settingsFromEnv();
	const lines: string[] = [];
	for (const version of queueVersions()) lines.push(await soakVersion(version, settings));
	console.log(
		`\nSIP trigger soak, queue mode (2 webhook processors routed by webhook-id, 2 workers); ${Math.round(settings.retryShare * 100)} % sent again after their 2xx, ${Math.round(settings.replayShare * 100)} % replayed ${settings.replayAfterMs / 1000} s later\n`,
	);
	console.log(
		'| n8n | Respond | Events | Ran exactly once | Not run | Ran twice | Retries after 2xx answered 2xx | Replays answered 2xx | First 1,000 p50 / p99 ms | Last 1,000 p50 / p99 ms | p99 last / first |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|---|---|');
	for (const line of lines) console.log(line);
	process.exit(0);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
