import { randomUUID } from 'node:crypto';
import * as os from 'node:os';

import {
	buildFailureEvent,
	buildSuccessEvent,
	send,
	type SendResult,
} from '../../emulators/webhook/sender';
import { startRecordingServer } from '../../n8n/http';
import {
	BURST_SIP_TOLERANCE_SECONDS,
	waitPastStartRefusal,
	withE2eTolerance,
} from '../../n8n/sip-start-refusal';
import type { ExecutionRecord, ExecutionStatus, N8nInstance } from '../../n8n/n8n';
import { newCredentialId } from '../../n8n/package';
import {
	graphWorkflow,
	node,
	PACKAGE_NODE_TYPES,
	SIP_TRIGGER_VERSION,
	webhookTrigger,
	type WorkflowJson,
	type WorkflowNode,
} from '../../n8n/workflows';
import { ReadinessGate } from './readiness-gate';

/**
 * A burst of signed SIP status events at a real n8n, sent the way the archive's sender does (any 2xx ends an event;
 * otherwise it is retried with the same webhook-id, a fresh timestamp and signature), while n8n is killed with
 * SIGKILL and restarted. Per event it counts what the issue asks: answered 2xx, lost (answered 2xx but no execution
 * holds it), duplicates (more than one execution holds it).
 */

/** The sender's schedule compressed: retry 1, 2, 5, 10 ... s after a failed attempt (the real one: 5 s, 5 min, ...). */
export const COMPRESSED_RETRY_SECONDS = [1, 2, 5, 10, 20, 30, 60, 60, 120, 120] as const;

/**
 * Time between the first attempts of consecutive events in the full fault runs (DURABILITY_SPACING_MS, default 100 ms:
 * 10 events/s, below what n8n took on 2 cores; faster, n8n falls behind, attempts time out and their retries pile up,
 * which measures overload rather than the fault).
 */
export function burstSpacingMs(env: NodeJS.ProcessEnv = process.env): number {
	const spacing = Number(env.DURABILITY_SPACING_MS ?? 100);
	if (!Number.isFinite(spacing) || spacing < 0)
		throw new Error('DURABILITY_SPACING_MS must be a number of ms >= 0');
	return spacing;
}

/** The machine's 1-minute load average, for the figures' header (the runs are load-sensitive). */
export function loadAverage(): string {
	return os.loadavg()[0].toFixed(1);
}

/** The real sender gives up on an attempt after 15 s. */
export const ATTEMPT_TIMEOUT_MS = 15_000;

export type ReceiverKind = 'immediately' | 'afterSaved' | 'webhookNode' | 'webhookNodeLastNode';

/** Every receiver the full runs know; DURABILITY_KINDS picks among them. */
export const RECEIVER_LABELS: Record<ReceiverKind, string> = {
	immediately: 'SIP trigger, Respond: Immediately',
	afterSaved: 'SIP trigger, Respond: After the Event Is Saved',
	webhookNode: "n8n's Webhook node (Respond: Immediately)",
	// n8n's own way to answer once the workflow ran: the peer of After the Event Is Saved for how fast answers drain.
	webhookNodeLastNode: "n8n's Webhook node (Respond: When Last Node Finishes)",
};

/**
 * A list of names from an environment variable (`redis,postgres`, commas or spaces), each one of `known`'s keys; an
 * unknown name is refused. `fallback` when the variable is unset or empty.
 */
export function choicesFromEnv<T extends string>(
	variable: string,
	known: Record<T, string>,
	fallback: readonly T[],
	env: NodeJS.ProcessEnv = process.env,
): T[] {
	const requested = env[variable]?.split(/[\s,]+/).filter(Boolean) ?? [];
	for (const name of requested) {
		if (!(name in known))
			throw new Error(
				`${variable}: unknown name ${JSON.stringify(name)} (one of ${Object.keys(known).join(', ')})`,
			);
	}
	return requested.length > 0 ? (requested as T[]) : [...fallback];
}

/** DURABILITY_KINDS (e.g. `afterSaved,webhookNode`) narrows the receivers; `fallback` otherwise. */
export function receiverKindsFromEnv(fallback: readonly ReceiverKind[]): ReceiverKind[] {
	return choicesFromEnv('DURABILITY_KINDS', RECEIVER_LABELS, fallback);
}

export interface Receiver {
	kind: ReceiverKind;
	workflow: WorkflowJson;
	url: string;
	/** The URL's path (`/webhook/...`), to address it on another webhook processor. */
	path: string;
}

/**
 * A witness outside n8n of what the receivers' workflows ran: the node after each receiver's trigger POSTs the event's
 * webhook-id here. An execution's record in n8n's database is not always that witness: n8n 1.x in queue mode, when a
 * worker fails to save an execution that already ran (its database was down), may later overwrite the execution's data
 * with a bare error record that no longer holds the event, although the trigger answered the sender and the
 * workflow's nodes ran.
 */
export class EventSink {
	private constructor(private readonly server: Awaited<ReturnType<typeof startRecordingServer>>) {}

	static async start(): Promise<EventSink> {
		return new EventSink(await startRecordingServer(() => ({ recorded: true })));
	}

	get url(): string {
		return `${this.server.url}/ran`;
	}

	/** How often the workflows' next node received each webhook-id. */
	runsPerId(): Map<string, number> {
		const runs = new Map<string, number>();
		for (const { id } of this.received()) runs.set(id, (runs.get(id) ?? 0) + 1);
		return runs;
	}

	/**
	 * When the workflow's last first run of one of these events happened (epoch ms), undefined when none ran: with
	 * the burst's start, how long the backlog took to drain counted in work done rather than in answers. Events that
	 * never ran are the lost ones, counted apart.
	 */
	lastFirstRunAtMs(ids: Iterable<string>): number | undefined {
		const firstRun = new Map<string, number>();
		for (const { id, atMs } of this.received()) if (!firstRun.has(id)) firstRun.set(id, atMs);
		let last: number | undefined;
		for (const id of ids) {
			const at = firstRun.get(id);
			if (at !== undefined && (last === undefined || at > last)) last = at;
		}
		return last;
	}

	private *received(): Generator<{ id: string; atMs: number }> {
		for (const request of this.server.requests) {
			const id = (JSON.parse(request.body) as { webhook_id?: unknown }).webhook_id;
			if (typeof id === 'string' && id !== '') yield { id, atMs: request.receivedAtMs };
		}
	}

	async close(): Promise<void> {
		await this.server.close();
	}
}

/** The node after a receiver's trigger: POSTs `{webhook_id}` (an n8n expression of the trigger's item) to the sink. */
function sinkNode(sinkUrl: string, webhookIdExpression: string): WorkflowNode {
	return node(
		SINK_NODE,
		'n8n-nodes-base.httpRequest',
		{
			method: 'POST',
			url: sinkUrl,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: {
				parameters: [{ name: 'webhook_id', value: `={{ ${webhookIdExpression} }}` }],
			},
			options: {},
		},
		{ typeVersion: 4.2 },
	);
}

const SINK_NODE = 'Record Run';

/** The trigger alone, or the trigger followed by the sink node. */
function receiverGraph(
	name: string,
	trigger: WorkflowNode,
	sinkUrl: string | undefined,
	webhookIdExpression: string,
): WorkflowJson {
	if (!sinkUrl) return graphWorkflow(name, [trigger], []);
	return graphWorkflow(
		name,
		[trigger, sinkNode(sinkUrl, webhookIdExpression)],
		[{ from: trigger.name, to: SINK_NODE }],
	);
}

/**
 * The workflow receiving the burst: the SIP trigger in one Respond mode, or n8n's Webhook node (Immediately, or When
 * Last Node Finishes);
 * with a sink URL, followed by a node that reports each event it receives there.
 */
export function receiverWorkflow(
	kind: ReceiverKind,
	baseUrl: string,
	credential: { id: string; name: string },
	sinkUrl?: string,
): Receiver {
	if (kind === 'webhookNode' || kind === 'webhookNodeLastNode') {
		const path = `durability-${randomUUID()}`;
		const responseMode = kind === 'webhookNode' ? 'onReceived' : 'lastNode';
		const workflow = receiverGraph(
			`durability ${kind} ${path.slice(-8)}`,
			webhookTrigger('Webhook', { path, responseMode }),
			sinkUrl,
			`$json.headers["webhook-id"]`,
		);
		return { kind, workflow, url: `${baseUrl}/webhook/${path}`, path: `/webhook/${path}` };
	}
	const webhookId = randomUUID();
	const trigger = node(
		'SIP Status',
		PACKAGE_NODE_TYPES.sipStatusTrigger,
		{ outcomes: 'both', respond: kind, options: withE2eTolerance({}, BURST_SIP_TOLERANCE_SECONDS) },
		{
			typeVersion: SIP_TRIGGER_VERSION,
			credentials: { archiveSipWebhookApi: credential },
			webhookId,
		},
	);
	const workflow = receiverGraph(
		`durability ${kind} ${webhookId.slice(0, 8)}`,
		trigger,
		sinkUrl,
		'$json.webhook_id',
	);
	const urlPath = `/webhook/${webhookId}/sip-status`;
	return { kind, workflow, url: `${baseUrl}${urlPath}`, path: urlPath };
}

/** What receivers are imported into: a single n8n, or a queue-mode cluster (through its main). */
export type ReceiverHost = Pick<
	N8nInstance,
	'importCredentials' | 'importWorkflows' | 'activate'
> & {
	readonly baseUrl: string;
};

/**
 * Imports the signing credential and the receivers' workflows, activated; the server must be stopped. With a sink,
 * every receiver reports the events its workflow ran to it.
 */
export async function setUpReceivers(
	n8n: ReceiverHost,
	secret: string,
	kinds: ReceiverKind[],
	sink?: EventSink,
): Promise<Receiver[]> {
	const credential = { id: newCredentialId(), name: 'durability signing secret' };
	await n8n.importCredentials([
		{ ...credential, type: 'archiveSipWebhookApi', data: { signingSecret: secret } },
	]);
	const receivers = kinds.map((kind) => receiverWorkflow(kind, n8n.baseUrl, credential, sink?.url));
	await n8n.importWorkflows(receivers.map(({ workflow }) => workflow));
	for (const { workflow } of receivers) await n8n.activate(workflow.id, workflow.name);
	return receivers;
}

/**
 * Before a burst: waits until each SIP receiver takes deliveries at every base URL (the refusal after n8n's start,
 * probed with a delivery that never runs; see waitPastStartRefusal), so a burst sent right after a start is not
 * answered 503 first. n8n's Webhook node refuses nothing after a start. Returns how long the refusal held it (ms).
 */
export async function untilReceiversTakeDeliveries(
	receivers: readonly Receiver[],
	baseUrls: readonly string[],
	secret: string,
): Promise<number> {
	let waitedMs = 0;
	for (const receiver of receivers) {
		if (receiver.kind === 'webhookNode' || receiver.kind === 'webhookNodeLastNode') continue;
		const refusal = await waitPastStartRefusal(
			baseUrls.map((base) => `${base}${receiver.path}`),
			secret,
		);
		waitedMs += refusal.waitedMs;
	}
	return waitedMs;
}

export interface BurstOptions {
	events: number;
	/** Time between the first attempts of consecutive events. */
	spacingMs: number;
	/** Strike the fault once this many events have been answered 2xx, for each number. */
	killAtAnswered: number[];
	retrySeconds?: readonly number[];
}

/**
 * What the burst does to n8n at each chosen moment, and resolves when n8n is back: by default (`killAndRestart`) a
 * SIGKILL of the single process and a restart; in queue mode a stopped database, Redis, or killed processes.
 */
export type Fault = () => Promise<void>;

/** How often a restart is tried before the run fails: n8n can exit while starting under a burst of retries. */
const RESTART_TRIES = 5;

export function killAndRestart(n8n: N8nInstance, log: (line: string) => void = console.log): Fault {
	return async () => {
		await n8n.kill();
		await restartAfterKill(n8n, log);
	};
}

/**
 * Starts a killed n8n again, as a restart policy (systemd, Docker) would: n8n 2.x with SQLite can exit while starting
 * when the senders' retries hold its database (ping or write-lock timeouts), so a failed start is tried again.
 */
export async function restartAfterKill(
	n8n: N8nInstance,
	log: (line: string) => void = console.log,
): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			// Slow on 2 cores under load (n8n also marks the killed executions crashed).
			await n8n.start(600_000);
			return;
		} catch (error) {
			if (attempt >= RESTART_TRIES) throw error;
			log(
				`n8n did not come back (try ${attempt} of ${RESTART_TRIES}): ${firstLine(error)}; starting it again`,
			);
		}
	}
}

function firstLine(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/** Base URLs the sender uses for n8n processes, and how to close what stands in front of them. */
export interface SenderRoute {
	baseUrls: string[];
	/** How deliveries reach n8n: through a readiness gate per process (the default), or straight to its port. */
	label: 'readiness gate' | 'direct';
	gates: ReadinessGate[];
	close(): Promise<void>;
}

/**
 * The sender reaches each n8n process through a ReadinessGate, as behind a load balancer with a readiness probe,
 * unless DURABILITY_DIRECT=1: then straight to n8n's port, where n8n's start-up answer (200 to every request while it
 * migrates) reaches the sender.
 */
export async function senderRoute(
	n8nBaseUrls: string[],
	direct = process.env.DURABILITY_DIRECT === '1',
): Promise<SenderRoute> {
	if (direct) return { baseUrls: n8nBaseUrls, label: 'direct', gates: [], close: async () => {} };
	const gates = await Promise.all(n8nBaseUrls.map((url) => ReadinessGate.start(url)));
	return {
		baseUrls: gates.map((gate) => gate.baseUrl),
		label: 'readiness gate',
		gates,
		close: async () => {
			await Promise.all(gates.map((gate) => gate.close()));
		},
	};
}

/** Where an attempt goes: one URL, or one chosen per attempt (e.g. round robin over webhook processors). */
export type Target = string | ((eventIndex: number, attempt: number) => string);

export interface EventRecord {
	id: string;
	answered: boolean;
	attempts: SendResult[];
}

export interface BurstResult {
	events: EventRecord[];
	kills: number;
	/** Events not yet answered when n8n was killed, summed over the kills: the most that may run twice. */
	unansweredAtKills: number;
	/** When the first event was sent (epoch ms). */
	startedAtMs: number;
	/** From the first send to the last answer (or the last attempt given up). */
	durationMs: number;
}

/** Sends the burst, strikes the fault at the given moments, and returns once every event is answered or given up. */
export async function runBurst(
	fault: Fault,
	target: Target,
	secret: string,
	options: BurstOptions,
): Promise<BurstResult> {
	const urlFor = typeof target === 'string' ? () => target : target;
	const started = Date.now();
	const retrySeconds = options.retrySeconds ?? COMPRESSED_RETRY_SECONDS;
	const killAt = [...options.killAtAnswered].sort((a, b) => a - b);
	let answered = 0;
	let kills = 0;
	let unansweredAtKills = 0;
	let restarting: Promise<void> = Promise.resolve();
	const onAnswered = () => {
		answered += 1;
		while (killAt.length > 0 && answered >= killAt[0]) {
			killAt.shift();
			kills += 1;
			unansweredAtKills += options.events - answered;
			restarting = restarting.then(fault);
		}
	};
	const deliver = async (index: number): Promise<EventRecord> => {
		await sleep(index * options.spacingMs);
		const event = index % 5 === 4 ? buildFailureEvent() : buildSuccessEvent();
		const id = `msg_durability_${index}_${randomUUID().slice(0, 8)}`;
		const attempts: SendResult[] = [];
		for (let attempt = 0; attempt <= retrySeconds.length; attempt++) {
			if (attempt > 0) await sleep(retrySeconds[attempt - 1] * 1000);
			const result = await send(urlFor(index, attempt), event, {
				secrets: [secret],
				id,
				timeoutMs: ATTEMPT_TIMEOUT_MS,
			});
			attempts.push(result);
			if (result.status >= 200 && result.status < 300) {
				onAnswered();
				return { id, answered: true, attempts };
			}
		}
		return { id, answered: false, attempts };
	};
	const events = await Promise.all(
		Array.from({ length: options.events }, (_, index) => deliver(index)),
	);
	await restarting;
	return {
		events,
		kills,
		unansweredAtKills,
		startedAtMs: started,
		durationMs: Date.now() - started,
	};
}

/** webhook-ids an execution holds: the trigger's `webhook_id` field, or the header the Webhook node passes on. */
export function webhookIdsIn(executionData: unknown): Set<string> {
	const ids = new Set<string>();
	for (const match of JSON.stringify(executionData ?? null).matchAll(/"webhook[-_]id":"([^"]+)"/g))
		ids.add(match[1]);
	return ids;
}

export interface DurabilityCounts {
	events: number;
	answered: number;
	/** Never answered 2xx, the sender gave up (its whole compressed schedule failed). */
	unanswered: number;
	/** Answered 2xx, but the workflow never ran with it: no execution holds it, nor did the sink (if any) receive it. */
	lost: number;
	/**
	 * With a sink: events the workflow ran (the sink received them) that no execution holds any more, because n8n
	 * overwrote the execution's record afterwards (see EventSink).
	 */
	ranWithoutRecord: number;
	/** With a sink: events held by an execution that succeeded, yet the sink never received them (a broken sink). */
	unreported: number;
	/**
	 * Executions in which the sink node itself failed (the sink unreachable, or refusing what it was sent). A crashed
	 * execution is not counted: n8n's crash recovery marks the node that was running when the process died as failed.
	 */
	sinkFailures: number;
	/** Held by more than one execution. */
	duplicates: number;
	executions: number;
	attempts: number;
	/** The sender's attempts by the status they got (0: no answer within its timeout, or the connection failed). */
	attemptStatuses: Record<string, number>;
	/** Executions by final status (e.g. success, crashed, new = never ran). */
	statuses: Record<string, number>;
	/** Lost events, with the statuses of executions that hold them (none, or only ones that never ran). */
	lostDetail: EventDetail[];
	/** Events never answered 2xx, with the executions that hold them and every attempt. */
	unansweredDetail: EventDetail[];
}

/** One event as the sender and n8n saw it: executions holding it (id:status) and each attempt (status@ts+ms). */
export interface EventDetail {
	id: string;
	heldBy: string[];
	attempts: string[];
}

/** Where executions are read from: a single n8n's SQLite database, or a queue-mode cluster's PostgreSQL. */
export interface ExecutionSource {
	executions(workflowId: string): Promise<ExecutionRecord[]>;
	/** Id and status of each execution, without its data: cheap enough to poll. */
	executionStatuses(workflowId: string): Promise<ExecutionStatus[]>;
	/**
	 * Executions a process logged as started. A worker can run an execution whose status it could not write (its
	 * database was down): the row stays "new", yet it ran.
	 */
	startedExecutionIds?(): Set<string>;
}

/**
 * Waits until n8n's executions of the workflow stop changing (every answered event's execution is saved by then in
 * "After the Event Is Saved" mode; in the others it is saved a moment after the answer), then counts. An execution
 * still "new" then, and that no process logged as started, never ran (in queue mode: its job was lost): it holds no
 * event. With a sink, an event the workflow's next node received counts as run even where no execution holds it.
 */
export async function countOutcomes(
	source: ExecutionSource,
	workflowId: string,
	burst: BurstResult,
	sink?: EventSink,
): Promise<DurabilityCounts> {
	// Polled without the executions' data (hundreds of runs, decoded each time); the data is read once, at the end.
	const fingerprint = async () =>
		(await source.executionStatuses(workflowId))
			.map((execution) => `${execution.id}:${execution.status}`)
			.join(',');
	let previous = '';
	let current = await fingerprint();
	while (current !== previous) {
		previous = current;
		await sleep(3000);
		current = await fingerprint();
	}
	const executions = await source.executions(workflowId);
	const started = source.startedExecutionIds?.() ?? new Set<string>();
	// Each execution's data is searched once (it is serialised to be searched).
	const idsOf = new Map(executions.map((execution) => [execution, webhookIdsIn(execution.data)]));
	const runsPerId = new Map<string, number>();
	for (const [execution, ids] of idsOf) {
		if (execution.status === 'new' && !started.has(execution.id)) continue;
		for (const id of ids) runsPerId.set(id, (runsPerId.get(id) ?? 0) + 1);
	}
	const answeredEvents = burst.events.filter((event) => event.answered);
	const statuses: Record<string, number> = {};
	for (const execution of executions)
		statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
	const sinkRuns = sink?.runsPerId() ?? new Map<string, number>();
	const held = (event: EventRecord) => (runsPerId.get(event.id) ?? 0) > 0;
	const succeeded = new Set(
		[...idsOf]
			.filter(([execution]) => execution.status === 'success')
			.flatMap(([, ids]) => [...ids]),
	);
	const unheld = answeredEvents.filter((event) => !held(event));
	const lostEvents = unheld.filter((event) => !sinkRuns.has(event.id));
	const detail = (event: EventRecord): EventDetail => ({
		id: event.id,
		heldBy: [...idsOf]
			.filter(([, ids]) => ids.has(event.id))
			.map(([execution]) => `${execution.id}:${execution.status}`),
		// What the sender saw, attempt by attempt: status (0 = no answer), when it was signed, how long it took.
		attempts: event.attempts.map(
			(attempt) => `${attempt.status}@${attempt.timestamp}+${attempt.latencyMs}ms`,
		),
	});
	const unansweredEvents = burst.events.filter((event) => !event.answered);
	return {
		statuses,
		lostDetail: lostEvents.slice(0, 5).map(detail),
		unansweredDetail: unansweredEvents.slice(0, 5).map(detail),
		events: burst.events.length,
		answered: answeredEvents.length,
		unanswered: unansweredEvents.length,
		lost: lostEvents.length,
		ranWithoutRecord: unheld.length - lostEvents.length,
		unreported: sink
			? burst.events.filter((event) => succeeded.has(event.id) && !sinkRuns.has(event.id)).length
			: 0,
		sinkFailures: executions.filter(
			(execution) =>
				execution.status !== 'crashed' &&
				execution.data?.resultData?.runData?.[SINK_NODE]?.some((run) => run.error !== undefined),
		).length,
		duplicates: burst.events.filter((event) => (runsPerId.get(event.id) ?? 0) > 1).length,
		executions: executions.length,
		attempts: burst.events.reduce((sum, event) => sum + event.attempts.length, 0),
		attemptStatuses: countBy(
			burst.events.flatMap((event) => event.attempts.map((attempt) => String(attempt.status))),
		),
	};
}

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
