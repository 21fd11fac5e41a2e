import { generateSecret } from '../../dev/emulators/webhook/sender';
import { placeFloorPackage } from '../../dev/bench/lib/floorPackage';
import { triggerSection } from '../../dev/bench/lib/results';
import {
	runTrigger,
	TRIGGER_N8N_ENV,
	triggerWorkflows,
	type TriggerResult,
} from '../../dev/bench/sections/trigger';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { waitPastStartRefusal } from '../../dev/n8n/sip-start-refusal';

// The benchmark's trigger section, reduced (`npm run bench -- --only trigger` sends thousands of events): in one real
// n8n, ours at both Respond settings, the careful user's workflow (Webhook with Raw Body -> Code verifying the
// signature -> If -> Respond to Webhook 204 / 401), the minimal community trigger of the bench's own and n8n's bare
// Webhook node each get every event through, and each verifying contender answers a delivery with a wrong signature
// and a stale one 401 without running it. No timing assertions: the figures depend on the machine.

const pkg = packageUnderTest();
const EVENTS = 30;

// One n8n line is enough to prove the harness (the trigger itself is tested on both lines elsewhere).
const NEWEST_VERSION = selectedN8nVersions().slice(-1);

describeIfPackageBuilt(pkg, 'ArchiveSipStatusTrigger').each(NEWEST_VERSION)(
	'bench trigger (reduced) on n8n %s',
	(version) => {
		let n8n: N8nInstance;
		let result: TriggerResult;

		beforeAll(async () => {
			n8n = await N8nInstance.create({ version, ...pkg, env: { ...TRIGGER_N8N_ENV } });
			placeFloorPackage(n8n.userFolder);
			const secret = generateSecret(32);
			const sipCredential = { id: newCredentialId(), name: 'trigger bench smoke sip' };
			await n8n.importCredentials([
				{ ...sipCredential, type: 'archiveSipWebhookApi', data: { signingSecret: secret } },
			]);
			const plan = triggerWorkflows({ sipCredential, secret, packageBuilt: true });
			await n8n.importWorkflows(plan.workflows);
			for (const workflow of plan.workflows) await n8n.activate(workflow.id, workflow.name);
			await n8n.start();
			await waitPastStartRefusal(plan.ourUrls(n8n), secret);
			result = await runTrigger(
				{
					n8n,
					secrets: [secret],
					events: EVENTS,
					concurrency: 4,
					warmupEvents: 2,
					rounds: 1,
					log: () => undefined,
				},
				plan.targets(n8n),
			);
		});

		afterAll(async () => {
			await n8n?.dispose();
		});

		it('gets every event of every contender into exactly one execution', () => {
			expect(result.cases.map((each) => each.kind)).toEqual([
				'ours',
				'oursAfterSaved',
				'careful',
				'minimal',
				'plain',
			]);
			for (const each of result.cases) {
				expect([each.kind, each.events, each.errors, each.lost, each.executionsFailed]).toEqual([
					each.kind,
					EVENTS,
					0,
					0,
					0,
				]);
			}
		});

		it('answers a wrong signature and a stale timestamp 401 at each verifying contender, and runs neither', () => {
			const verifying = result.cases.filter((each) => each.refusals !== undefined);
			expect(verifying.map((each) => each.kind)).toEqual(['ours', 'oursAfterSaved', 'careful']);
			for (const each of verifying) {
				expect([each.kind, each.refusals]).toEqual([
					each.kind,
					{
						sent: 2,
						statuses: { 'wrong signature': 401, 'stale timestamp': 401 },
						ran: 0,
						ok: true,
					},
				]);
			}
		});

		it('prints the section with the ratios over the minimal trigger and the careful workflow', () => {
			const section = triggerSection(result);
			expect(section).toContain('## Trigger under concurrent senders');
			expect(section).toContain('Ours (Immediately) / Minimal community trigger');
			expect(section).toContain("Ours (Immediately) / Careful user's workflow");
			expect(section).not.toContain('REFUSAL CHECK FAILED');
			expect(result.ratios.filter((each) => each.target !== undefined)).toHaveLength(2);
		});
	},
);
