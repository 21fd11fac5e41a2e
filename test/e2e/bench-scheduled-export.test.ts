import { startSandbox, type Sandbox } from '../../dev/emulators';
import { selectedN8nVersions } from '../../dev/n8n/install';
import { describeIfPackageBuilt, newCredentialId, packageUnderTest } from '../../dev/n8n/package';
import { renderResults, scheduledExportSection } from '../../dev/bench/lib/results';
import { fetchAiToken } from '../../dev/bench/lib/tokens';
import { runScheduledExport, type ExportResult } from '../../dev/bench/sections/scheduledExport';
import { aiCredentialImport } from '../../dev/n8n/credentials';

// The benchmark's scheduled export section, reduced (`npm run bench -- --only scheduledExport` runs it at 100,000
// rows): both flows run in real n8n against a bench-mode emulator and must each write a CSV holding every speech
// task. No timing assertions: the figures depend on the machine.

const pkg = packageUnderTest();
const ROWS = 1500;

// One n8n line is enough to prove the harness (the trigger itself is tested on both lines elsewhere); it keeps CI short.
const NEWEST_VERSION = selectedN8nVersions().slice(-1);

describeIfPackageBuilt(pkg, 'ArchiveAiMetadataTrigger').each(NEWEST_VERSION)(
	'bench scheduled export (reduced) on n8n %s',
	(version) => {
		let sandbox: Sandbox;
		let result: ExportResult;

		beforeAll(async () => {
			sandbox = await startSandbox({ rows: ROWS, benchMode: true });
			const ourRef = { id: newCredentialId(), name: 'export smoke ai' };
			result = await runScheduledExport({
				n8nVersion: version,
				env: {},
				packageBuilt: true,
				packageRoot: pkg.packageRoot,
				sandbox,
				ourCredential: { ref: ourRef, imported: aiCredentialImport(ourRef, sandbox) },
				headerCredential: (token) => {
					const ref = { id: newCredentialId(), name: 'export smoke header' };
					return {
						ref,
						imported: {
							...ref,
							type: 'httpHeaderAuth',
							data: { name: 'Authorization', value: `Bearer ${token}` },
						},
					};
				},
				fetchToken: () => fetchAiToken(sandbox),
				latencyMs: 50,
				floor: true,
				rounds: 1,
				warmup: false,
				log: () => undefined,
			});
		});

		afterAll(async () => {
			await sandbox?.close();
		});

		it('runs each flow once, without errors', () => {
			expect(result.cases.map((each) => [each.contender, each.error])).toEqual([
				['ours', undefined],
				['builtin', undefined],
				['floor', undefined],
			]);
		});

		it('writes a CSV with every speech task from every flow (ours, built-in, floor)', () => {
			expect(result.rows).toBe(ROWS);
			for (const each of result.cases) {
				expect(each.csvRows).toBe(ROWS);
				expect(each.executions).toBe(1);
				// The floor fetches nothing: its trigger emits rows it parsed already.
				if (each.contender === 'floor') expect(each.graphqlRequests).toBe(0);
				else expect(each.graphqlRequests).toBeGreaterThanOrEqual(Math.ceil(ROWS / result.pageSize));
			}
			const floor = result.cases.find((each) => each.contender === 'floor');
			const ours = result.cases.find((each) => each.contender === 'ours');
			// The floor emits the rows ours fetches (the same columns, transcripts included), in another order.
			expect(floor?.csvBytes).toBe(ours?.csvBytes);
			// Its clock starts at its own mark, before n8n creates the execution.
			expect(floor?.pollMs).toBeGreaterThanOrEqual(0);
		});

		it("runs the fetch floor: a bare client sending ours' requests gets every row once", () => {
			const ours = result.cases.find((each) => each.contender === 'ours');
			expect(result.fetchFloor).toEqual([
				expect.objectContaining({ round: 1, requests: ours?.graphqlRequests, rows: ROWS }),
			]);
			expect(result.fetchFloor?.[0].error).toBeUndefined();
			expect(result.fetchFloor?.[0].wallMs).toBeGreaterThan(0);
			expect(result.fetchFloorMedianMs).toBe(result.fetchFloor?.[0].wallMs);
			expect(result.fetchingFloorTimeRatio).toBeGreaterThan(0);
		});

		it('prints the section table side by side with the ratios', () => {
			const section = scheduledExportSection(result);
			expect(section).toContain('## Scheduled export of 1,500 new speech_tasks');
			expect(section).toContain('+50 ms per request');
			expect(section).toContain('| Contender | Run | Time ms |');
			expect(section).toContain('| Ratio ours / built-in |');
			expect(section).toContain('| Ratio ours / floor |');
			expect(section).toContain("| Fetch floor: a bare client sending ours' page requests");
			expect(section).toContain('time ours / (floor + fetch floor)');
			expect(section).toContain('time ours / built-in');
			const markdown = renderResults({
				generatedAt: new Date().toISOString(),
				n8nVersion: version,
				machine: {
					cpu: 'test',
					cores: 1,
					memoryGiB: 1,
					n8nNode: '',
					benchNode: '',
					loadAverageAtStart: [],
				},
				options: {},
				packageBuilt: { ai: true, org: true, sip: true },
				scheduledExport: result,
				errors: [],
			});
			expect(markdown).toContain(section);
		});
	},
);
