import { startSandbox } from '../emulators';
import { selectedN8nVersions } from '../n8n/install';
import { N8nInstance } from '../n8n/n8n';
import { packageUnderTest } from '../n8n/package';
import {
	countRows,
	produceRowsWithKills,
	setUpPollingWorkflow,
	type PollDurabilityCounts,
} from './lib/poll-faults';

// Issue 16, the AI Metadata Trigger in full: 5,000 new face tasks appear over 2 minutes while the trigger polls every
// 5 s into a run of about 2 s; n8n (single process, SQLite) is killed with SIGKILL at 3 random moments, each while a
// run is going, and restarted. Prints rows never emitted, rows in no finished run, and repeats. Needs `npm run build`.
//   node scripts/run-ts.js dev/e2e/ai-trigger-durability-full.ts   (E2E_N8N_VERSIONS, DURABILITY_ROWS,
//   DURABILITY_SECONDS, DURABILITY_KILLS)

async function measure(
	version: string,
	rows: number,
	seconds: number,
	kills: number,
): Promise<PollDurabilityCounts> {
	const sandbox = await startSandbox({ rows: 50, seed: 16 });
	const n8n = await N8nInstance.create({ version, ...packageUnderTest() });
	try {
		const workflow = await setUpPollingWorkflow(n8n, sandbox);
		await n8n.start();
		const killAt = Array.from({ length: kills }, () => 0.1 + Math.random() * 0.8);
		const production = await produceRowsWithKills(n8n, sandbox, workflow.id, {
			rows,
			durationMs: seconds * 1000,
			killAt,
		});
		const counts = await countRows(n8n, workflow.id, production.taskIds);
		console.log(
			`n8n ${version} AI Metadata Trigger: ${JSON.stringify({ ...counts, kills: production.kills, killAt: killAt.map((at) => Math.round(at * 100) / 100), seconds: Math.round(production.durationMs / 1000) })}`,
		);
		return counts;
	} finally {
		await n8n.dispose();
		await sandbox.close();
	}
}

async function main(): Promise<void> {
	const rows = Number(process.env.DURABILITY_ROWS ?? 5000);
	const seconds = Number(process.env.DURABILITY_SECONDS ?? 120);
	const kills = Number(process.env.DURABILITY_KILLS ?? 3);
	const lines: string[] = [];
	for (const version of selectedN8nVersions()) {
		const counts = await measure(version, rows, seconds, kills);
		lines.push(
			`| ${version} | ${counts.rows} | ${counts.neverEmitted} | ${counts.notFinished} | ${counts.repeated} | ${counts.cutOff} | ${counts.executions} |`,
		);
	}
	console.log(
		`\n${rows} rows over ${seconds} s, ${kills} SIGKILLs during runs, single process (SQLite)\n`,
	);
	console.log(
		'| n8n | Rows | Never emitted | In no finished run | Repeated | Runs cut off | Runs |',
	);
	console.log('|---|---|---|---|---|---|---|');
	for (const line of lines) console.log(line);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
