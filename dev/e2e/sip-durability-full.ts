import { generateSecret } from '../emulators/webhook/sender';
import {
	burstSpacingMs,
	countOutcomes,
	killAndRestart,
	loadAverage,
	RECEIVER_LABELS,
	receiverKindsFromEnv,
	runBurst,
	senderRoute,
	setUpReceivers,
	untilReceiversTakeDeliveries,
	type DurabilityCounts,
	type ReceiverKind,
} from './lib/fault-burst';
import { selectedN8nVersions } from '../n8n/install';
import { n8nEnvFrom } from '../n8n/extraEnv';
import { N8nInstance } from '../n8n/n8n';
import { packageUnderTest } from '../n8n/package';

// Issue 16, scenario 1 in full: 1,000 signed events per receiver, single n8n process (SQLite), n8n killed with
// SIGKILL at 3 random moments of the burst and restarted, the sender retrying with the same webhook-id (compressed
// schedule). Receivers: the SIP trigger in both Respond modes and n8n's Webhook node (Respond: Immediately). Each gets
// a fresh n8n. Prints answered 2xx / lost / duplicates per receiver. The sender goes through a readiness gate, as
// behind a load balancer (DURABILITY_DIRECT=1: straight to n8n's port). Needs `npm run build` first.
//   node scripts/run-ts.js dev/e2e/sip-durability-full.ts
//   (E2E_N8N_VERSIONS, DURABILITY_EVENTS, DURABILITY_SPACING_MS, DURABILITY_KILLS, DURABILITY_DIRECT, DURABILITY_KINDS;
//   DURABILITY_N8N_ENV='{"NAME": "value"}' adds environment to n8n)

let routeLabel = '';

const KINDS: ReceiverKind[] = ['immediately', 'afterSaved', 'webhookNode'];

async function measure(
	version: string,
	kind: ReceiverKind,
	events: number,
	kills: number,
): Promise<DurabilityCounts> {
	const secret = generateSecret(32);
	const n8n = await N8nInstance.create({
		version,
		...packageUnderTest(),
		env: n8nEnvFrom('DURABILITY_N8N_ENV'),
	});
	try {
		const [receiver] = await setUpReceivers(n8n, secret, [kind]);
		await n8n.start();
		// Random moments between 10 % and 90 % of the events answered.
		const killAtAnswered = Array.from({ length: kills }, () =>
			Math.round(events * (0.1 + Math.random() * 0.8)),
		);
		const route = await senderRoute([n8n.baseUrl]);
		routeLabel = route.label;
		await untilReceiversTakeDeliveries([receiver], route.baseUrls, secret);
		const burst = await runBurst(
			killAndRestart(n8n),
			`${route.baseUrls[0]}${receiver.path}`,
			secret,
			{ events, spacingMs: burstSpacingMs(), killAtAnswered },
		).finally(() => route.close());
		const counts = await countOutcomes(n8n, receiver.workflow.id, burst);
		console.log(
			`n8n ${version} ${RECEIVER_LABELS[kind]}: ${JSON.stringify({ ...counts, kills: burst.kills, unansweredAtKills: burst.unansweredAtKills, seconds: Math.round(burst.durationMs / 1000), load: loadAverage() })}`,
		);
		return counts;
	} finally {
		await n8n.dispose();
	}
}

async function main(): Promise<void> {
	const events = Number(process.env.DURABILITY_EVENTS ?? 1000);
	const kills = Number(process.env.DURABILITY_KILLS ?? 3);
	const rows: string[] = [];
	for (const version of selectedN8nVersions()) {
		for (const kind of receiverKindsFromEnv(KINDS)) {
			const counts = await measure(version, kind, events, kills);
			rows.push(
				`| ${version} | ${RECEIVER_LABELS[kind]} | ${counts.answered} | ${counts.lost} | ${counts.duplicates} | ${counts.unanswered} |`,
			);
		}
	}
	console.log(
		`\n${events} events (one every ${burstSpacingMs()} ms), ${kills} SIGKILLs each, single process (SQLite), sender through: ${routeLabel}\n`,
	);
	console.log('| n8n | Receiver | Answered 2xx | Lost | Duplicates | Never answered |');
	console.log('|---|---|---|---|---|---|');
	for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
