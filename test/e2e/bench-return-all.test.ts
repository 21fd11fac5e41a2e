import { startSandbox, type Sandbox } from '../../dev/emulators';
import { aiCredentialImport } from '../../dev/n8n/credentials';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { N8nInstance } from '../../dev/n8n/n8n';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { DEFAULT_ACTION_CONCURRENCY } from '../../nodes/shared/n8n/limits';
import { idsOf } from '../../dev/bench/lib/importing';
import { returnAllSection } from '../../dev/bench/lib/results';
import { fetchAiToken } from '../../dev/bench/lib/tokens';
import { pagingWorkflows, runPaging, type PagingResult } from '../../dev/bench/sections/returnAll';

// The benchmark's Return All section, reduced (`npm run bench -- --only returnAll` runs it at 100,000 rows and four
// latencies): in real n8n against a bench-mode emulator, our AI node at its default and one other Max Concurrent
// Requests, the HTTP Request node's pager alone and with Split Out, and the bare fetch pager must each end up with
// every face task, and the section's tables must print. No timing assertions: the figures depend on the machine.

const pkg = packageUnderTest();
const ROWS = 3000;
// Not the default (8): the section runs a setting once however often it is named.
const OTHER_CONCURRENCY = 4;

// One n8n line is enough to prove the harness (the node itself is tested on both lines elsewhere); it keeps CI short.
const NEWEST_VERSION = selectedN8nVersions().slice(-1);

describeIfPackageBuilt(pkg, 'ArchiveAiMetadata').each(NEWEST_VERSION)(
	'bench Return All (reduced) on n8n %s',
	(version) => {
		let sandbox: Sandbox;
		let n8n: N8nInstance;
		let result: PagingResult;

		beforeAll(async () => {
			sandbox = await startSandbox({ rows: ROWS, benchMode: true });
			n8n = await N8nInstance.create({ version, ...pkg });
			const ours = { id: newCredentialId(), name: 'return all smoke ai' };
			const header = { id: newCredentialId(), name: 'return all smoke header' };
			await n8n.importCredentials([
				aiCredentialImport(ours, sandbox),
				{
					...header,
					type: 'httpHeaderAuth',
					data: { name: 'Authorization', value: `Bearer ${await fetchAiToken(sandbox)}` },
				},
			]);
			const setup = {
				api: 'ai' as const,
				n8n,
				sandbox,
				ourCredential: ours,
				headerCredential: header,
				packageBuilt: true,
				defaultConcurrency: DEFAULT_ACTION_CONCURRENCY,
				otherConcurrencies: [OTHER_CONCURRENCY],
				latenciesMs: [20],
				log: () => undefined,
			};
			const workflows = pagingWorkflows(setup, 'smoke-');
			await n8n.importWorkflows(Object.values(workflows));
			result = await runPaging(
				{ ...setup, token: await fetchAiToken(sandbox) },
				idsOf(workflows),
				'smoke-',
			);
		});

		afterAll(async () => {
			await n8n?.dispose();
			await sandbox?.close();
		});

		it('runs every contender once at the latency, without errors, and each gets every row', () => {
			expect(result.rows).toBe(ROWS);
			expect(result.cases.map((each) => [each.kind, each.concurrency, each.error])).toEqual(
				expect.arrayContaining([
					['ours', DEFAULT_ACTION_CONCURRENCY, undefined],
					['ours', OTHER_CONCURRENCY, undefined],
					['http', 1, undefined],
					['httpSplit', 1, undefined],
					['bare', DEFAULT_ACTION_CONCURRENCY, undefined],
					['bare', OTHER_CONCURRENCY, undefined],
				]),
			);
			for (const each of result.cases) {
				expect(each.latencyMs).toBe(20);
				expect(each.rows).toBe(ROWS);
				expect(each.graphqlRequests).toBeGreaterThanOrEqual(Math.ceil(ROWS / result.pageSize));
			}
			// Every measured page came from stored bytes: the server was not what the contenders waited for.
			expect(result.server.missesAfterWarmup).toBeLessThanOrEqual(1);
		});

		it('prints the section with its ratios and targets', () => {
			const section = returnAllSection(result);
			expect(section).toContain('## Return All of 3,000 face tasks');
			expect(section).toContain('| +20 ms |');
			expect(section).toContain('Targets:');
			expect(result.ratios.map((each) => each.latencyMs)).toEqual([20]);
		});
	},
);
