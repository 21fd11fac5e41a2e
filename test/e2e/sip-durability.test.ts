import { generateSecret } from '../../dev/emulators/webhook/sender';
import {
	countOutcomes,
	killAndRestart,
	runBurst,
	senderRoute,
	setUpReceivers,
	type BurstResult,
	type DurabilityCounts,
	type Receiver,
	untilReceiversTakeDeliveries,
} from '../../dev/e2e/lib/fault-burst';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, packageUnderTest } from '../../dev/n8n/package';

// Issue 16, reduced: 100 signed events at the SIP trigger with "Respond: After the Event Is Saved" in a single n8n
// process (SQLite), n8n killed with SIGKILL once mid-burst and restarted, the sender retrying with the same
// webhook-id on a compressed schedule. No event answered 2xx may be without an execution. The full-size run (1,000
// events, 3 kills, every mode and n8n's Webhook node) is dev/e2e/sip-durability-full.ts.

const pkg = packageUnderTest();
const EVENTS = 100;

describeIfPackageBuilt(pkg, 'ArchiveSipStatusTrigger').each(selectedN8nVersions())(
	'SIP trigger durability in n8n %s (SIGKILL mid-burst)',
	(version) => {
		const secret = generateSecret(32);
		let n8n: N8nInstance;
		let receiver: Receiver;
		let burst: BurstResult;
		let counts: DurabilityCounts;

		beforeAll(async () => {
			n8n = await N8nInstance.create({ version, ...pkg });
			[receiver] = await setUpReceivers(n8n, secret, ['afterSaved']);
			await n8n.start();
			// As behind a load balancer that checks readiness: n8n answers 200 to everything while it starts.
			const route = await senderRoute([n8n.baseUrl], false);
			// The trigger refuses deliveries until n8n's start + its tolerance (BURST_TOLERANCE_SECONDS): the burst
			// starts after that, so the retries it counts are those the kill caused.
			const refusedMs = await untilReceiversTakeDeliveries([receiver], route.baseUrls, secret);
			burst = await runBurst(killAndRestart(n8n), `${route.baseUrls[0]}${receiver.path}`, secret, {
				events: EVENTS,
				spacingMs: 50,
				killAtAnswered: [EVENTS * 0.4],
			}).finally(() => route.close());
			counts = await countOutcomes(n8n, receiver.workflow.id, burst);
			console.log(
				`n8n ${version}, Respond: After the Event Is Saved, 1 SIGKILL: ${JSON.stringify({ ...counts, refusedBeforeBurstMs: refusedMs, burstSeconds: Math.round(burst.durationMs / 1000) })}`,
			);
		});

		afterAll(async () => {
			await n8n?.dispose();
		});

		it('killed and restarted n8n once, mid-burst', () => {
			expect(burst.kills).toBe(1);
			// Some deliveries met the dead process (refused or cut off) and were retried.
			expect(counts.attempts).toBeGreaterThan(EVENTS);
		});

		it('answers every event 2xx in the end (the sender retries the ones the crash cut off)', () => {
			expect(counts.unanswered).toBe(0);
			expect(counts.answered).toBe(EVENTS);
		});

		it('loses no event: every event answered 2xx has an execution', () => {
			expect(counts.lost).toBe(0);
		});

		it('runs an event twice only around the kill: never one that was answered before it', () => {
			expect(counts.executions).toBeGreaterThanOrEqual(EVENTS + counts.duplicates);
			expect(counts.duplicates).toBeLessThanOrEqual(burst.unansweredAtKills);
		});
	},
);
