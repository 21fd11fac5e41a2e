import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../n8n/install';
import {
	countOutcomes,
	runBurst,
	webhookIdsIn,
	type BurstOptions,
	type BurstResult,
	type DurabilityCounts,
	type EventSink,
	type Fault,
	type Receiver,
	type ReceiverHost,
	type Target,
} from '../lib/fault-burst';
import type { QueueCluster } from './cluster';

/**
 * The queue-mode faults of issue 16, struck mid-burst: PostgreSQL or Redis gone for a while (SIGKILL, then started
 * again: PostgreSQL recovers its data, Redis comes back empty as it persists nothing), or one webhook processor and one
 * worker killed with SIGKILL and restarted. n8n processes that exit by themselves meanwhile (n8n gives up on Redis
 * after a while) are started again by the cluster's supervisor, as a restart policy would.
 */

export type QueueScenario = 'postgres' | 'redis' | 'processes';

export const SCENARIO_LABELS: Record<QueueScenario, string> = {
	postgres: 'PostgreSQL stopped',
	redis: 'Redis stopped',
	processes: 'webhook processor + worker SIGKILL',
};

/**
 * As a deployment's liveness probe on `/healthz/readiness` would, a webhook processor whose readiness fails this long
 * while PostgreSQL and Redis are up is restarted. n8n 1.x needs it: its processors stay disconnected after a
 * PostgreSQL outage (readiness 503, every webhook answered 503 "Database is not ready!"). 2.x reconnects by itself.
 */
export const UNREADY_RESTART_MS = 30_000;

export function queueFault(
	cluster: QueueCluster,
	scenario: QueueScenario,
	outageMs: number,
): Fault {
	return async () => {
		if (scenario === 'postgres') {
			await cluster.stopPostgres();
			await sleep(outageMs);
			await cluster.startPostgres();
		} else if (scenario === 'redis') {
			await cluster.stopRedis();
			await sleep(outageMs);
			await cluster.startRedis();
		} else {
			await Promise.all([cluster.killProcess('webhook', 0), cluster.killProcess('worker', 0)]);
			await Promise.all([
				cluster.restartProcess('webhook', 0),
				cluster.restartProcess('worker', 0),
			]);
		}
	};
}

/** Receivers are imported through the cluster's main; the URL names the first webhook processor. */
export function clusterHost(cluster: QueueCluster): ReceiverHost {
	return {
		importCredentials: async (credentials) => await cluster.importCredentials(credentials),
		importWorkflows: async (workflows) => await cluster.importWorkflows(workflows),
		activate: async (workflowId, name) => await cluster.activate(workflowId, name),
		baseUrl: cluster.webhookBaseUrls[0],
	};
}

/** Each attempt goes to the next webhook processor, as a load balancer would spread them: a retry reaches the other. */
export function acrossProcessors(
	cluster: QueueCluster,
	receiver: Receiver,
	urls: string[] = cluster.webhookBaseUrls,
): Target {
	return (eventIndex, attempt) => `${urls[(eventIndex + attempt) % urls.length]}${receiver.path}`;
}

/**
 * Every attempt of one event goes to the same webhook processor, as a load balancer hashing the `webhook-id` header
 * would (docs/queue-mode.md); one event has one id, so the event's index stands for it.
 */
export function byWebhookId(
	cluster: QueueCluster,
	receiver: Receiver,
	urls: string[] = cluster.webhookBaseUrls,
): Target {
	return (eventIndex) => `${urls[eventIndex % urls.length]}${receiver.path}`;
}

export interface QueueBurstOutcome {
	burst: BurstResult;
	counts: DurabilityCounts;
	/** n8n processes the supervisor restarted meanwhile (died, or unready for too long). */
	restarted: string[];
	/**
	 * From the first send until the workflow had run the last of the events (the sink received it): the backlog drained
	 * in work done, where `burst.durationMs` counts to the last answer. Undefined when none ran.
	 */
	lastRunSeconds: number | undefined;
}

export interface QueueBurstPlan {
	scenario: QueueScenario;
	outageMs: number;
	receiver: Receiver;
	target: Target;
	secret: string;
	sink: EventSink;
	burst: BurstOptions;
}

/**
 * One burst at a queue-mode cluster: the scenario's fault struck as the plan says, processes restarted as a
 * deployment's policy would meanwhile, then what ran and what was lost counted from the cluster's executions.
 */
export async function runQueueBurst(
	cluster: QueueCluster,
	plan: QueueBurstPlan,
): Promise<QueueBurstOutcome> {
	const stopSupervising = cluster.supervise({ restartUnreadyAfterMs: UNREADY_RESTART_MS });
	let stopped: Promise<string[]> | undefined;
	const stop = () => (stopped ??= stopSupervising());
	try {
		const burst = await runBurst(
			queueFault(cluster, plan.scenario, plan.outageMs),
			plan.target,
			plan.secret,
			plan.burst,
		);
		const counts = await countOutcomes(cluster, plan.receiver.workflow.id, burst, plan.sink);
		const restarted = await stop();
		const ranAt = plan.sink.lastFirstRunAtMs(burst.events.map((event) => event.id));
		const lastRunSeconds =
			ranAt === undefined ? undefined : Math.round((ranAt - burst.startedAtMs) / 1000);
		return { burst, counts, restarted, lastRunSeconds };
	} finally {
		await stop();
	}
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `DURABILITY_N8N_LOG_LEVEL` (e.g. debug) for every n8n process of a durability cluster; n8n's default otherwise. */
export function debugLogLevel(
	env: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
	const level = env.DURABILITY_N8N_LOG_LEVEL;
	return level ? { N8N_LOG_LEVEL: level } : undefined;
}

/**
 * After a burst that lost or never answered an event: every process's log, each execution of the receiver (status,
 * the webhook-ids it holds, its error), and the counts, under .build/durability-evidence/, so a failure on a machine
 * no one watched can still be read.
 */
export async function keepEvidence(
	cluster: QueueCluster,
	receiver: Receiver,
	scenario: QueueScenario,
	counts: DurabilityCounts,
): Promise<string> {
	const dir = path.join(
		REPO_ROOT,
		'.build',
		'durability-evidence',
		`${cluster.version}-${scenario}-${new Date().toISOString().replace(/[:.]/g, '-')}`,
	);
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'logs.txt'), cluster.logs());
	const executions = await cluster.executions(receiver.workflow.id);
	const summary = executions.map((execution) => ({
		id: execution.id,
		status: execution.status,
		webhookIds: [...webhookIdsIn(execution.data)],
		error: execution.data?.resultData?.error?.message,
	}));
	fs.writeFileSync(path.join(dir, 'executions.json'), JSON.stringify(summary, null, 1));
	fs.writeFileSync(path.join(dir, 'counts.json'), JSON.stringify(counts, null, 1));
	console.log(`durability evidence kept in ${dir}`);
	return dir;
}
