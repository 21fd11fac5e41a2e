import { generateSecret } from '../../../dev/emulators/webhook/sender';
import { describeIfPackageBuilt, packageUnderTest } from '../../../dev/n8n/package';
import {
	countOutcomes,
	EventSink,
	runBurst,
	senderRoute,
	setUpReceivers,
	type EventDetail,
	type Receiver,
	type SenderRoute,
} from '../../../dev/e2e/lib/fault-burst';
import { QueueCluster } from '../../../dev/e2e/queue/cluster';
import {
	acrossProcessors,
	clusterHost,
	debugLogLevel,
	keepEvidence,
	queueFault,
	SCENARIO_LABELS,
	UNREADY_RESTART_MS,
	type QueueScenario,
} from '../../../dev/e2e/queue/faults';
import { queueVersions, QUEUE_MODE_REQUESTED } from '../../../dev/e2e/queue/selection';

// Issue 16, queue mode, reduced: the SIP trigger with "Respond: After the Event Is Saved" receives 100 signed events
// through two webhook processors (each retry goes to the other one), while PostgreSQL is stopped for 10 s, then Redis
// for 10 s, then one webhook processor and one worker are killed with SIGKILL, each mid-burst. No event answered 2xx
// may be without a run of its workflow (an execution holding it, or the node after the trigger having received it:
// n8n 1.x can overwrite the record of an execution that ran while PostgreSQL was down, see EventSink). Full size
// (1,000 events, 30 s, every mode and n8n's Webhook node): dev/e2e/queue/durability-full.ts.

const pkg = packageUnderTest();
const EVENTS = 100;
const OUTAGE_MS = 10_000;
const SCENARIOS: QueueScenario[] = ['postgres', 'redis', 'processes'];
/** Events left unanswered because n8n never started any execution it saved for them (see the test). */
const MAX_NEVER_STARTED = 2;

/** Held by at least one saved execution, and by none that started. */
function onlyNeverStarted(event: EventDetail): boolean {
	return event.heldBy.length > 0 && event.heldBy.every((execution) => execution.endsWith(':new'));
}

const describeQueue = QUEUE_MODE_REQUESTED
	? describeIfPackageBuilt(pkg, 'ArchiveSipStatusTrigger')
	: describe.skip;

describeQueue.each(queueVersions())('SIP trigger durability in n8n %s queue mode', (version) => {
	const secret = generateSecret(32);
	let cluster: QueueCluster;
	let receivers: Receiver[];
	let route: SenderRoute | undefined;
	let sink: EventSink;

	beforeAll(async () => {
		cluster = await QueueCluster.create({ version, ...pkg, env: debugLogLevel() });
		sink = await EventSink.start();
		receivers = await setUpReceivers(
			clusterHost(cluster),
			secret,
			SCENARIOS.map(() => 'afterSaved'),
			sink,
		);
		await cluster.start();
		// As behind a load balancer that checks readiness: n8n answers 200 to everything while it starts.
		route = await senderRoute(cluster.webhookBaseUrls, false);
	});

	afterAll(async () => {
		await route?.close();
		await cluster?.dispose();
		await sink?.close();
	});

	it.each(SCENARIOS)(
		'%s mid-burst: none lost, every event answered or waiting for n8n to start it',
		async (scenario) => {
			const receiver = receivers[SCENARIOS.indexOf(scenario)];
			const stopSupervising = cluster.supervise({ restartUnreadyAfterMs: UNREADY_RESTART_MS });
			const burst = await runBurst(
				queueFault(cluster, scenario, OUTAGE_MS),
				acrossProcessors(cluster, receiver, route?.baseUrls),
				secret,
				{ events: EVENTS, spacingMs: 50, killAtAnswered: [EVENTS * 0.4] },
			);
			const counts = await countOutcomes(cluster, receiver.workflow.id, burst, sink);
			const restarted = await stopSupervising();
			if (counts.lost > 0 || counts.unanswered > 0)
				await keepEvidence(cluster, receiver, scenario, counts);
			console.log(
				`n8n ${version} queue mode, ${SCENARIO_LABELS[scenario]}, Respond: After the Event Is Saved: ${JSON.stringify({ ...counts, restarted })}`,
			);

			expect(burst.kills).toBe(1);
			// Late, not lost: an event may stay unanswered only while every execution n8n saved for it still waits to
			// start ("new"). After a PostgreSQL outage, n8n 1.x processes can keep failing to get a database connection
			// ("timeout exceeded when trying to connect") although their readiness passes: their saved executions
			// never start, so "After the Event Is Saved" cannot answer, and the sender keeps retrying (72 hours for the
			// real one). Seen once in CI (1.123.81, 1 of 100, both executions "new").
			expect(counts.unanswered).toBeLessThanOrEqual(MAX_NEVER_STARTED);
			expect(counts.unansweredDetail.filter((event) => !onlyNeverStarted(event))).toEqual([]);
			expect(counts.answered).toBe(EVENTS - counts.unanswered);
			expect(counts.lost).toBe(0);
			// The witness works: every event a successful execution holds reached it, and its node never failed.
			expect(counts.unreported).toBe(0);
			expect(counts.sinkFailures).toBe(0);
			// Only events not yet answered at the fault can have run twice.
			expect(counts.duplicates).toBeLessThanOrEqual(burst.unansweredAtKills);
		},
	);
});
