import { generateSecret } from '../../emulators/webhook/sender';
import { n8nEnvFrom } from '../../n8n/extraEnv';
import { packageUnderTest } from '../../n8n/package';
import {
	burstSpacingMs,
	choicesFromEnv,
	EventSink,
	loadAverage,
	RECEIVER_LABELS,
	receiverKindsFromEnv,
	senderRoute,
	setUpReceivers,
	untilReceiversTakeDeliveries,
	type ReceiverKind,
} from '../lib/fault-burst';
import { QueueCluster } from './cluster';
import {
	acrossProcessors,
	byWebhookId,
	clusterHost,
	runQueueBurst,
	SCENARIO_LABELS,
	type QueueScenario,
} from './faults';
import { queueVersions } from './selection';

// Issue 16, queue-mode scenarios in full: 1,000 signed events per receiver through two webhook processors (each retry
// to the other), the fault struck once at a random moment of the burst: PostgreSQL stopped for 30 s, Redis stopped for
// 30 s, or one webhook processor and one worker killed with SIGKILL. Receivers: the SIP trigger in both Respond modes
// and n8n's Webhook node (Immediately; DURABILITY_KINDS=webhookNodeLastNode adds When Last Node Finishes, the peer that
// also answers after the run). One cluster per n8n version; bursts one after another. Needs `npm run build` first.
//   node scripts/run-ts.js dev/e2e/queue/durability-full.ts
//   (E2E_QUEUE_N8N_VERSIONS, DURABILITY_EVENTS, DURABILITY_SPACING_MS, DURABILITY_OUTAGE_SECONDS, DURABILITY_SCENARIOS, DURABILITY_KINDS;
//   DURABILITY_N8N_ENV='{"NAME": "value"}' adds environment to every n8n process;
//   DURABILITY_ROUTE=id sends every attempt of an event to one processor, as a load balancer hashing webhook-id would)

let routeLabel = '';

async function measureVersion(
	version: string,
	scenarios: QueueScenario[],
	kinds: ReceiverKind[],
	events: number,
	outageMs: number,
): Promise<string[]> {
	const secret = generateSecret(32);
	const cluster = await QueueCluster.create({
		version,
		...packageUnderTest(),
		env: n8nEnvFrom('DURABILITY_N8N_ENV'),
	});
	const sink = await EventSink.start();
	const lines: string[] = [];
	let closeRoute = async () => {};
	try {
		const plan = scenarios.flatMap((scenario) => kinds.map((kind) => ({ scenario, kind })));
		const receivers = await setUpReceivers(
			clusterHost(cluster),
			secret,
			plan.map((each) => each.kind),
			sink,
		);
		await cluster.start();
		const route = await senderRoute(cluster.webhookBaseUrls);
		closeRoute = () => route.close();
		routeLabel = route.label;
		for (const [index, { scenario, kind }] of plan.entries()) {
			const receiver = receivers[index];
			// Processors (re)started by the last scenario refuse SIP deliveries until their start + the tolerance.
			await untilReceiversTakeDeliveries([receiver], route.baseUrls, secret);
			const { burst, counts, restarted, lastRunSeconds } = await runQueueBurst(cluster, {
				scenario,
				outageMs,
				receiver,
				target:
					process.env.DURABILITY_ROUTE === 'id'
						? byWebhookId(cluster, receiver, route.baseUrls)
						: acrossProcessors(cluster, receiver, route.baseUrls),
				secret,
				sink,
				burst: {
					events,
					spacingMs: burstSpacingMs(),
					killAtAnswered: [Math.round(events * (0.1 + Math.random() * 0.8))],
				},
			});
			const answeredSeconds = Math.round(burst.durationMs / 1000);
			console.log(
				`n8n ${version} queue mode, ${SCENARIO_LABELS[scenario]}, ${RECEIVER_LABELS[kind]}: ${JSON.stringify({ ...counts, restarted, unansweredAtFault: burst.unansweredAtKills, seconds: answeredSeconds, lastRunSeconds, load: loadAverage() })}`,
			);
			lines.push(
				`| ${version} | ${SCENARIO_LABELS[scenario]} | ${RECEIVER_LABELS[kind]} | ${counts.answered} | ${counts.lost} | ${counts.duplicates} | ${counts.unanswered} | ${burst.unansweredAtKills} | ${answeredSeconds} s | ${lastRunSeconds === undefined ? 'none' : `${lastRunSeconds} s`} |`,
			);
		}
	} finally {
		await closeRoute();
		await cluster.dispose();
		await sink.close();
	}
	return lines;
}

async function main(): Promise<void> {
	const events = Number(process.env.DURABILITY_EVENTS ?? 1000);
	const outageSeconds = Number(process.env.DURABILITY_OUTAGE_SECONDS ?? 30);
	const scenarios = choicesFromEnv(
		'DURABILITY_SCENARIOS',
		SCENARIO_LABELS,
		Object.keys(SCENARIO_LABELS) as QueueScenario[],
	);
	const kinds = receiverKindsFromEnv(['immediately', 'afterSaved', 'webhookNode']);
	const lines: string[] = [];
	for (const version of queueVersions()) {
		lines.push(...(await measureVersion(version, scenarios, kinds, events, outageSeconds * 1000)));
	}
	console.log(
		`\n${events} events per receiver (one every ${burstSpacingMs()} ms), queue mode (2 webhook processors, 2 workers), outages ${outageSeconds} s, sender through: ${routeLabel}${process.env.DURABILITY_ROUTE === 'id' ? ', each event to one processor (by webhook-id)' : ', each attempt to the next processor'}\n`,
	);
	console.log(
		'| n8n | Fault | Receiver | Answered 2xx | Lost | Duplicates | Never answered | At fault | Last answer | Last run |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|---|');
	for (const line of lines) console.log(line);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
