/**
 * `npm start`: the one-command demo. Builds the package, starts the service emulators and a real
 * n8n (2.x) with the package loaded, demo credentials and the example workflows of examples/ (the
 * files users import), then prints what to open and how to send a signed test event. Ctrl-C stops
 * everything.
 *
 * Environment: DEMO_N8N_VERSION (2.40.7), DEMO_N8N_PORT (5678), DEMO_AI_PORT (4010),
 * DEMO_ORG_PORT (4020), DEMO_ROWS (1000). Flags: --fresh (new demo folder), --no-build.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { startSandbox, type Sandbox } from '../dev/emulators';
import { generateSecret } from '../dev/emulators/webhook/sender';
import { request } from '../dev/n8n/http';
import { REPO_ROOT } from '../dev/n8n/install';
import { N8nInstance } from '../dev/n8n/n8n';
import { DEFAULT_TOLERANCE_SECONDS } from '../nodes/ArchiveSipStatusTrigger/settings';
import { DEMO_OWNER } from './demo/owner';
import { DEMO_WORKFLOW_IDS, demoCredentials } from './demo/workflows';
import { EXAMPLES_DIR, exampleFiles, readExample } from './examples/files';
import { EXPORT_FOLDER, SIP_WEBHOOK_ID } from './examples/workflows';

const DEMO_DIR = path.join(REPO_ROOT, '.n8n-demo');
/** n8n runs in DEMO_DIR: the export example's relative path lands here, the only place n8n 2.x may write to. */
const FILES_DIR = path.join(DEMO_DIR, '.n8n-files');
const EXPORT_DIR = path.join(DEMO_DIR, EXPORT_FOLDER);
const SECRET_FILE = path.join(DEMO_DIR, 'signing-secret');
/** Written once the examples are imported (a demo folder of before the examples has `.workflows-imported`). */
const SETUP_MARKER = path.join(DEMO_DIR, '.examples-imported');

interface DemoSettings {
	n8nVersion: string;
	n8nPort: number;
	aiPort: number;
	orgPort: number;
	rows: number;
	fresh: boolean;
	build: boolean;
}

function intFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < 0)
		throw new Error(`${name} must be a whole number, got "${raw}"`);
	return value;
}

function readSettings(args: string[]): DemoSettings {
	return {
		n8nVersion: process.env.DEMO_N8N_VERSION ?? '2.40.7',
		n8nPort: intFromEnv('DEMO_N8N_PORT', 5678),
		aiPort: intFromEnv('DEMO_AI_PORT', 4010),
		orgPort: intFromEnv('DEMO_ORG_PORT', 4020),
		rows: intFromEnv('DEMO_ROWS', 1000),
		fresh: args.includes('--fresh'),
		build: !args.includes('--no-build'),
	};
}

function step(message: string): void {
	console.log(`[demo] ${message}`);
}

function build(): void {
	step('building the package (npm run build)');
	const result = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
	if (result.status !== 0) throw new Error('npm run build failed');
}

/** One signing secret per demo folder, so a restarted demo accepts the same test command. */
function signingSecret(): string {
	if (fs.existsSync(SECRET_FILE)) return fs.readFileSync(SECRET_FILE, 'utf8').trim();
	const secret = generateSecret(32);
	fs.writeFileSync(SECRET_FILE, `${secret}\n`, { mode: 0o600 });
	return secret;
}

async function importDemoData(n8n: N8nInstance, sandbox: Sandbox, secret: string): Promise<void> {
	// Credentials are imported on every start: the emulator ports may have changed.
	step('importing credentials');
	await n8n.importCredentials(demoCredentials(sandbox, secret));
	// Workflows only once: afterwards they are the user's to edit.
	if (!fs.existsSync(SETUP_MARKER)) {
		step(`importing the example workflows of ${EXAMPLES_DIR} (n8n import:workflow --separate)`);
		await n8n.importWorkflowFolder(EXAMPLES_DIR);
		const examples = exampleFiles().map(readExample);
		for (const id of [DEMO_WORKFLOW_IDS.sip, DEMO_WORKFLOW_IDS.export]) {
			const workflow = examples.find((each) => each.id === id);
			if (!workflow) throw new Error(`no example workflow with id ${id} in ${EXAMPLES_DIR}`);
			step(`activating "${workflow.name}"`);
			await n8n.activate(workflow.id, workflow.name);
		}
		fs.writeFileSync(SETUP_MARKER, new Date().toISOString());
	}
}

/** Creates the owner account so the editor opens on a login page; a no-op once one exists. */
async function ensureOwner(n8n: N8nInstance): Promise<void> {
	const response = await request(`${n8n.baseUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(DEMO_OWNER),
	});
	if (response.status >= 200 && response.status < 300) {
		step(`created the owner account ${DEMO_OWNER.email}`);
	} else if (!/already|setup/i.test(response.body)) {
		step(`owner setup answered ${response.status}; the editor may ask you to create an account`);
	}
}

function aPidWithMetadata(sandbox: Sandbox): string {
	const task = sandbox.data.ai.records('face_tasks').find((each) => each.status === 'succeeded');
	return String((task?.pid as string | undefined) ?? 'kdleipkyuj');
}

function printInstructions(
	n8n: N8nInstance,
	sandbox: Sandbox,
	secret: string,
	logFile: string,
): void {
	const webhookUrl = `${n8n.baseUrl}/webhook/${SIP_WEBHOOK_ID}/sip-status`;
	const send = `npm run sandbox -- send --url ${webhookUrl} --secret ${secret}`;
	// An upper bound: n8n loaded the trigger before it was ready. The demo keeps the default tolerance.
	const refusedUntil = new Date(Date.now() + DEFAULT_TOLERANCE_SECONDS * 1000).toLocaleTimeString();
	const lines = [
		'',
		'Archive services demo is running.',
		'',
		`  n8n editor        ${n8n.baseUrl}/   (log in: ${DEMO_OWNER.email} / ${DEMO_OWNER.password})`,
		`  SIP workflow      ${n8n.baseUrl}/workflow/${DEMO_WORKFLOW_IDS.sip}`,
		`  Export workflow   ${n8n.baseUrl}/workflow/${DEMO_WORKFLOW_IDS.export}   (daily, or Execute workflow; CSV files in ${EXPORT_DIR})`,
		`  Enrichment        ${n8n.baseUrl}/workflow/${DEMO_WORKFLOW_IDS.enrichment}   (Execute workflow)`,
		`  AI agent          ${n8n.baseUrl}/workflow/${DEMO_WORKFLOW_IDS.agent}   (needs your OpenAI credential)`,
		`  SIP webhook URL   ${webhookUrl}`,
		`  AI metadata API   ${sandbox.ai.graphqlUrl}`,
		`  Organization API  ${sandbox.org.apiUrl}`,
		`  n8n log           ${logFile}`,
		'',
		'Send a signed test event (in another terminal):',
		`  (until about ${refusedUntil} n8n answers 503: for the Timestamp Tolerance after a start, 5 minutes, the`,
		'  SIP trigger refuses production events, so that a copy captured before the start cannot run again; the send',
		'  command waits that out, as the archive retries. The Test URL, while the editor listens, is not refused.)',
		`  ${send} --outcome success --pid ${aPidWithMetadata(sandbox)}`,
		`  ${send} --outcome failure --reason "checksum mismatch"`,
		`  ${send} --tamper        (refused with 401: no execution)`,
		'',
		'Then open Executions in the editor. Press Ctrl-C to stop everything.',
		'',
	];
	console.log(lines.join('\n'));
}

async function main(): Promise<void> {
	const settings = readSettings(process.argv.slice(2));
	if (settings.build) build();
	if (settings.fresh) {
		step(`starting over: removing ${DEMO_DIR}`);
		fs.rmSync(DEMO_DIR, { recursive: true, force: true });
	}
	fs.mkdirSync(EXPORT_DIR, { recursive: true });

	step(
		`starting the emulators on ports ${settings.aiPort} (AI) and ${settings.orgPort} (Organization)`,
	);
	const sandbox = await startSandbox({
		rows: settings.rows,
		aiPort: settings.aiPort,
		orgPort: settings.orgPort,
	});
	const logFile = path.join(DEMO_DIR, 'n8n.log');
	const log = fs.createWriteStream(logFile, { flags: 'a' });
	step(`preparing n8n ${settings.n8nVersion} (installed into a cache on first use: takes minutes)`);
	const n8n = await N8nInstance.create({
		version: settings.n8nVersion,
		userFolder: DEMO_DIR,
		port: settings.n8nPort,
		onServerOutput: (chunk) => log.write(chunk),
		// The export workflow writes its files here; 2.x restricts file access by default.
		env: { N8N_RESTRICT_FILE_ACCESS_TO: FILES_DIR, N8N_LOG_LEVEL: 'info' },
	});

	let stopping = false;
	const stop = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		step(`${signal}: stopping n8n and the emulators`);
		await n8n.dispose();
		await sandbox.close();
		log.end();
		process.exit(0);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, () => void stop(signal));

	const secret = signingSecret();
	await importDemoData(n8n, sandbox, secret);
	step(`starting n8n on ${n8n.baseUrl} (first start takes a minute)`);
	await n8n.start();
	await ensureOwner(n8n);
	printInstructions(n8n, sandbox, secret, logFile);
}

main().catch((error: unknown) => {
	console.error(`[demo] failed: ${(error as Error).message}`);
	process.exit(1);
});
