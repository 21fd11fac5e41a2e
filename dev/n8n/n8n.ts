import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { ensureN8nInstall, REPO_ROOT, type N8nInstall } from './install';
import { runGroup, spawnGroup, type GroupProcess, type RunResult } from './processes';
import { parseRawOutput, type CliRun, type RunExecutionData } from './run-data';
import { PACKAGE_NAME, type WorkflowJson } from './workflows';

/** Fixed so that credentials encrypted by one CLI call can be read by the next and by the server. */
const ENCRYPTION_KEY = 'e2e-archive-services-encryption-key';
const CLI_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 180_000;
const PUBLICATION_FAILURES = new Set(['failed', 'partial_success']);

export interface CredentialImport {
	id: string;
	name: string;
	type: string;
	/** Plain values; n8n encrypts them on import. */
	data: Record<string, unknown>;
}

/**
 * How the package gets into the user folder: `symlink` (to the repo root, so `dist` resolves
 * its dev dependencies from the repo), `copy` (package.json, index.js and dist only: what an npm
 * install of the package would hold), or `none` (built-in nodes only).
 */
export type PackageMode = 'symlink' | 'copy' | 'none';

export interface N8nInstanceOptions {
	version: string;
	packageMode?: PackageMode;
	/** Directory holding package.json and dist; defaults to the repo root. */
	packageRoot?: string;
	/** Extra environment for every n8n process (after the harness defaults). */
	env?: Record<string, string>;
	/**
	 * A persistent user folder (created if missing, never deleted by `dispose`); default a fresh
	 * temp folder that `dispose` deletes. The demo keeps its n8n data this way.
	 */
	userFolder?: string;
	/** Editor/webhook port; default a free one. */
	port?: number;
	/** Receives the server's output as it arrives (e.g. to write a log file). */
	onServerOutput?: (chunk: string) => void;
}

export interface ExecutionStatus {
	id: string;
	status: string;
}

export interface ExecutionRecord {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	finished: boolean;
	/** Decoded from n8n's flatted format; absent when n8n saved no data for it. */
	data?: RunExecutionData;
}

export interface ExecuteOptions {
	/** Return the run of a failed execution instead of throwing. */
	allowFailure?: boolean;
}

export interface ExecuteResult {
	run: CliRun;
	/** false when the workflow failed (only returned with `allowFailure`). */
	succeeded: boolean;
	output: string;
}

/** One real n8n (a cached install) with its own user folder, database and ports. */
export class N8nInstance {
	private server: GroupProcess | undefined;

	private serverDied = false;
	private serverOutput: string[] = [];
	private readonly activated = new Map<string, string>();
	private readonly secrets = new Set<string>();

	private constructor(
		readonly install: N8nInstall,
		readonly userFolder: string,
		readonly port: number,
		private readonly runnerBrokerPort: number,
		private readonly extraEnv: Record<string, string>,
		private readonly ownsUserFolder: boolean,
		private readonly onServerOutput?: (chunk: string) => void,
	) {}

	static async create(options: N8nInstanceOptions): Promise<N8nInstance> {
		const install = ensureN8nInstall(options.version);
		const ownsUserFolder = options.userFolder === undefined;
		const userFolder =
			options.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), `e2e-n8n-${options.version}-`));
		fs.mkdirSync(userFolder, { recursive: true });
		try {
			const mode = options.packageMode ?? 'symlink';
			if (mode !== 'none') placePackage(userFolder, options.packageRoot ?? REPO_ROOT, mode);
			const [port, runnerBrokerPort] = await Promise.all([options.port ?? freePort(), freePort()]);
			const instance = new N8nInstance(
				install,
				userFolder,
				port,
				runnerBrokerPort,
				options.env ?? {},
				ownsUserFolder,
				options.onServerOutput,
			);
			if (ownsUserFolder && instance.env().DB_TYPE === 'sqlite') await instance.seedDatabase();
			return instance;
		} catch (error) {
			if (ownsUserFolder) fs.rmSync(userFolder, { recursive: true, force: true });
			throw error;
		}
	}

	get version(): string {
		return this.install.version;
	}

	get majorVersion(): number {
		return Number(this.install.version.split('.')[0]);
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get databaseFile(): string {
		return path.join(this.userFolder, '.n8n', 'database.sqlite');
	}

	/** The environment every n8n process of this instance runs with. */
	env(): NodeJS.ProcessEnv {
		const inherited = pick(process.env, ['HOME', 'LANG', 'TZ', 'TMPDIR']);
		return {
			...inherited,
			// Task runners and anything else n8n forks must find Node 24 first.
			PATH: `${path.dirname(this.install.nodeBin)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			DB_TYPE: 'sqlite',
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			// Base of the production webhook URLs triggers register (renamed in 2.x).
			[this.majorVersion < 2 ? 'WEBHOOK_URL' : 'N8N_WEBHOOK_URL']: `${this.baseUrl}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console',
			// Every n8n CLI run and server start loads thousands of modules; V8's code cache on disk
			// saves about a sixth of that CPU (about 1 s per run on 2 cores).
			NODE_COMPILE_CACHE: path.join(harnessCacheDir(this.install), 'compile-cache'),
			// Each instance brokers its own task runners; the default port would collide.
			N8N_RUNNERS_BROKER_PORT: String(this.runnerBrokerPort),
			// 1.x runs the Code node in-process unless told otherwise; 2.x always uses runners.
			...(this.majorVersion < 2 ? { N8N_RUNNERS_ENABLED: 'true' } : {}),
			...this.extraEnv,
		};
	}

	/** Runs `n8n <args>` to completion (the server need not be running). Throws on failure. */
	async cli(args: string[], timeoutMs = CLI_TIMEOUT_MS): Promise<RunResult> {
		const result = await this.runCli(args, timeoutMs);
		if (result.code !== 0) {
			throw new Error(
				this.redact(`n8n ${args[0]} exited with ${result.code}:\n${result.stdout}${result.stderr}`),
			);
		}
		return result;
	}

	/** Imports credentials; n8n encrypts plain `data` with this instance's key. */
	async importCredentials(credentials: CredentialImport[]): Promise<void> {
		for (const credential of credentials) this.rememberSecrets(credential.data);
		await this.withImportFile(credentials, (file) =>
			this.cli(['import:credentials', `--input=${file}`]),
		);
	}

	/** Imports a workflow (inactive); its `id` is kept, so tests can execute or activate it. */
	async importWorkflow(workflow: WorkflowJson): Promise<string> {
		await this.importWorkflows([workflow]);
		return workflow.id;
	}

	/** Imports several workflows (inactive) in one `n8n import:workflow`: each CLI run costs seconds of CPU. */
	async importWorkflows(workflows: WorkflowJson[]): Promise<void> {
		await this.withImportFile(workflows, (file) =>
			this.cli(['import:workflow', `--input=${file}`]),
		);
	}

	/**
	 * Imports every *.json file of a folder as it is, as a user would: `n8n import:workflow --separate --input=<dir>`
	 * (inactive; ids kept; credentials linked by id, else by name and type).
	 */
	async importWorkflowFolder(dir: string): Promise<void> {
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/** Runs an imported workflow once with `n8n execute` (its manual trigger) and returns the run. */
	async execute(workflowId: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
		const result = await this.runCli(
			['execute', `--id=${workflowId}`, '--rawOutput'],
			CLI_TIMEOUT_MS,
		);
		const output = this.redact(result.stdout + result.stderr);
		const run = parseRawOutput(result.stdout) ?? parseRawOutput(output);
		// Seen once on 2.40.7 under load: the full, successful run was printed and then the CLI
		// process died by a signal during teardown (exit code null). The printed run is what n8n
		// recorded, so it decides; any other non-zero exit still fails.
		const exitedCleanly = result.code === 0 || (result.code === null && run?.finished === true);
		const succeeded = exitedCleanly && run !== undefined && !run.data.resultData.error;
		if (run && (succeeded || options.allowFailure)) return { run, succeeded, output };
		throw new Error(`n8n execute --id=${workflowId} failed (exit ${result.code}):\n${output}`);
	}

	/**
	 * Marks an imported workflow active so that `start()` registers its triggers. It writes what
	 * `n8n update:workflow --active=true` (1.x) and `n8n publish:workflow` (2.x) write: `active`, and
	 * `activeVersionId` pointing at the workflow's current version; a CLI run would cost about 5
	 * CPU-seconds. Must be called while the server is stopped (it caches the database).
	 */
	async activate(workflowId: string, workflowName: string): Promise<void> {
		if (this.server) throw new Error('activate() needs the server stopped; call it before start()');
		const { changes } = await this.write(
			`UPDATE workflow_entity SET active = 1, activeVersionId = versionId WHERE id = '${sqlString(workflowId)}'`,
		);
		if (changes !== 1)
			throw new Error(`cannot activate workflow ${workflowId}: it is not imported`);
		this.expectActivation(workflowId, workflowName);
	}

	/** Makes `start()` wait until this workflow's triggers are registered (its activation was written elsewhere). */
	expectActivation(workflowId: string, workflowName: string): void {
		this.activated.set(workflowId, workflowName);
	}

	/**
	 * Starts `n8n start` and waits until the editor is up and every workflow activated with
	 * `activate()` has its triggers registered (or fails with n8n's activation error).
	 */
	async start(timeoutMs = START_TIMEOUT_MS): Promise<void> {
		if (this.server) throw new Error('n8n is already running');
		this.serverOutput = [];
		const server = spawnGroup(this.install.nodeBin, [this.install.n8nBin, 'start'], {
			cwd: this.userFolder,
			env: this.env(),
			onOutput: (chunk) => {
				this.serverOutput.push(chunk);
				this.onServerOutput?.(chunk);
			},
		});
		this.server = server;
		void server.exited.then(() => {
			if (this.server === server) this.serverDied = true;
		});
		this.serverDied = false;
		const deadline = Date.now() + timeoutMs;
		try {
			await this.waitForServerLog([/Editor is now accessible via/], timeoutMs);
			for (const [workflowId, name] of this.activated) {
				await this.waitForActivation(workflowId, name, deadline);
			}
		} catch (error) {
			await this.stop();
			throw error;
		}
	}

	/**
	 * n8n 1.x (and 2.x with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false) logs `Activated workflow
	 * "<name>"` at info level. 2.x's default publication service logs only at debug level, but
	 * records the outcome in workflow_publication_outbox; either signal means the triggers are live.
	 */
	private async waitForActivation(
		workflowId: string,
		name: string,
		deadline: number,
	): Promise<void> {
		const activatedLine = new RegExp(`Activated workflow "${escapeRegExp(name)}"`);
		const failedLine = new RegExp(
			`Issue on initial workflow activation try of "${escapeRegExp(name)}"`,
		);
		const hasOutbox = await this.hasTable('workflow_publication_outbox');
		for (;;) {
			const log = this.serverOutput.join('');
			if (activatedLine.test(log)) return;
			if (failedLine.test(log))
				throw new Error(`n8n could not activate "${name}":\n${this.serverLog()}`);
			if (hasOutbox) {
				const outcome = await this.publicationOutcome(workflowId);
				if (outcome?.status === 'completed') return;
				if (outcome && PUBLICATION_FAILURES.has(outcome.status)) {
					throw new Error(
						this.redact(
							`n8n could not publish "${name}" (${outcome.status}): ${outcome.errorMessage ?? ''}`,
						),
					);
				}
			}
			if (!this.server) throw new Error(`n8n stopped while activating "${name}"`);
			if (Date.now() > deadline) {
				throw new Error(`workflow "${name}" not active in time:\n${this.serverLog()}`);
			}
			await sleep(250);
		}
	}

	private async publicationOutcome(
		workflowId: string,
	): Promise<{ status: string; errorMessage: string | null } | undefined> {
		const [latest] = await this.query<{ status: string; errorMessage: string | null }>(
			`SELECT status, errorMessage FROM workflow_publication_outbox WHERE workflowId = '${sqlString(workflowId)}' ORDER BY id DESC LIMIT 1`,
		);
		return latest;
	}

	private async hasTable(table: string): Promise<boolean> {
		const rows = await this.query<{ name: string }>(
			`SELECT name FROM sqlite_master WHERE type = 'table' AND name = '${sqlString(table)}'`,
		);
		return rows.length > 0;
	}

	/** Stops the server (SIGTERM, then SIGKILL after a grace period). Safe to call twice. */
	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		if (server) await server.stop(15_000);
	}

	/** Kills the server with SIGKILL, as a crash would: no graceful shutdown. `start()` brings it back. */
	async kill(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		if (server) await server.kill();
	}

	/** Process id (and process group id) of the running server, e.g. to sample its memory. */
	get serverPid(): number | undefined {
		return this.server?.child.pid;
	}

	get running(): boolean {
		return this.server !== undefined;
	}

	/** Whether the server exited by itself (not through stop() or kill()), e.g. n8n giving up on Redis. */
	get died(): boolean {
		return this.serverDied;
	}

	/** Everything the server printed since the last `start()` (secrets redacted). */
	serverLog(): string {
		return this.redact(this.serverOutput.join(''));
	}

	/**
	 * The server output exactly as printed, for leak assertions only: `serverLog()` redacts known
	 * secrets, so a test that a secret never reaches the log must read this one.
	 */
	unredactedServerLog(): string {
		return this.serverOutput.join('');
	}

	/** Waits until the server log matches every pattern; fails early if the server exits. */
	async waitForServerLog(patterns: RegExp[], timeoutMs = START_TIMEOUT_MS): Promise<void> {
		const server = this.server;
		if (!server) throw new Error('n8n is not running');
		const deadline = Date.now() + timeoutMs;
		let exitCode: number | null | undefined;
		void server.exited.then((code) => {
			exitCode = code;
		});
		while (!patterns.every((pattern) => pattern.test(this.serverOutput.join('')))) {
			if (exitCode !== undefined) {
				throw new Error(`n8n exited with ${exitCode} before it was ready:\n${this.serverLog()}`);
			}
			if (Date.now() > deadline) {
				throw new Error(
					`n8n not ready after ${timeoutMs} ms (waiting for ${patterns.join(', ')}):\n${this.serverLog()}`,
				);
			}
			await sleep(200);
		}
	}

	/** Executions recorded in the database, oldest first, with decoded run data. */
	async executions(workflowId?: string): Promise<ExecutionRecord[]> {
		const where =
			workflowId === undefined ? '' : ` WHERE e.workflowId = '${sqlString(workflowId)}'`;
		const rows = await this.query<Record<string, unknown>>(
			`SELECT e.*, d.data AS runData FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id${where} ORDER BY e.id`,
			['runData'],
		);
		return rows.map((row) => ({
			id: String(row.id),
			workflowId: String(row.workflowId),
			status: String(row.status),
			mode: String(row.mode),
			finished: Boolean(row.finished),
			data: (row.runData as RunExecutionData | null) ?? undefined,
		}));
	}

	/** Id and status of each execution of the workflow, oldest first, without their data. */
	async executionStatuses(workflowId: string): Promise<ExecutionStatus[]> {
		const rows = await this.query<{ id: unknown; status: unknown }>(
			`SELECT id, status FROM execution_entity WHERE workflowId = '${sqlString(workflowId)}' ORDER BY id`,
		);
		return rows.map((row) => ({ id: String(row.id), status: String(row.status) }));
	}

	/** Polls the database until `count` executions of the workflow have finished (any outcome) with their run data saved. */
	async waitForExecutions(
		workflowId: string,
		count = 1,
		timeoutMs = 60_000,
	): Promise<ExecutionRecord[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const done = (await this.executions(workflowId)).filter(
				(each) => !isUnfinished(each.status) && hasFinalData(each),
			);
			if (done.length >= count) return done;
			if (Date.now() > deadline) {
				throw new Error(
					`${done.length}/${count} executions of ${workflowId} finished after ${timeoutMs} ms`,
				);
			}
			await sleep(250);
		}
	}

	/** Read-only SQL on this instance's database, run with the sqlite3 addon n8n ships. */
	async query<Row>(sql: string, flattedColumns: string[] = []): Promise<Row[]> {
		if (!fs.existsSync(this.databaseFile)) return [];
		return JSON.parse(await this.runSqlite([], sql, flattedColumns)) as Row[];
	}

	/** One statement that changes this instance's database (the server stopped). */
	private async write(statement: string): Promise<{ changes: number }> {
		return JSON.parse(await this.runSqlite(['--write'], statement)) as { changes: number };
	}

	private async runSqlite(
		flags: string[],
		sql: string,
		flattedColumns: string[] = [],
	): Promise<string> {
		const script = path.join(REPO_ROOT, 'dev', 'n8n', 'sqlite-query.cjs');
		const n8nPackageDir = path.dirname(path.dirname(this.install.n8nBin));
		const args = [script, ...flags, n8nPackageDir, this.databaseFile, sql, ...flattedColumns];
		const result = await runGroup(this.install.nodeBin, args, {
			env: { PATH: process.env.PATH },
			timeoutMs: 60_000,
		});
		if (result.code !== 0) throw new Error(`sqlite failed: ${result.stderr}`);
		return result.stdout;
	}

	/** Stops the server and deletes a temp user folder (set E2E_KEEP_USER_FOLDER=1 to keep it). */
	async dispose(): Promise<void> {
		await this.stop();
		if (!this.ownsUserFolder || process.env.E2E_KEEP_USER_FOLDER === '1') return;
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}

	/** Replaces every known secret in text, so logs and errors can be shown safely. */
	redact(text: string): string {
		let redacted = text;
		for (const secret of this.secrets) redacted = redacted.split(secret).join('***');
		return redacted;
	}

	/**
	 * Gives a fresh user folder the database n8n's first run would create: a copy of one migrated,
	 * empty database per n8n version (built once, by n8n itself). Migrations cost every fresh
	 * instance 2-4 s of CPU in its first CLI run otherwise.
	 */
	private async seedDatabase(): Promise<void> {
		const template = await migratedDatabase(this);
		const target = path.dirname(this.databaseFile);
		fs.mkdirSync(target, { recursive: true });
		for (const file of fs.readdirSync(template)) {
			fs.copyFileSync(path.join(template, file), path.join(target, file));
		}
	}

	private runCli(args: string[], timeoutMs: number): Promise<RunResult> {
		if (this.server && args[0] !== 'execute') {
			// Imports and activation write the database the server caches; keep them apart.
			throw new Error(`n8n ${args[0]} needs the server stopped`);
		}
		return runGroup(this.install.nodeBin, [this.install.n8nBin, ...args], {
			cwd: this.userFolder,
			env: this.env(),
			timeoutMs,
		});
	}

	private async withImportFile<T>(content: unknown, use: (file: string) => Promise<T>): Promise<T> {
		const file = path.join(this.userFolder, `import-${randomBytes(6).toString('hex')}.json`);
		fs.writeFileSync(file, JSON.stringify(content), { mode: 0o600 });
		try {
			return await use(file);
		} finally {
			// Credential files hold plain secrets: never leave them behind.
			fs.rmSync(file, { force: true });
		}
	}

	private rememberSecrets(data: Record<string, unknown>): void {
		for (const value of Object.values(data)) {
			// Short values (ports, flags) would redact unrelated text.
			if (typeof value === 'string' && value.length >= 6) this.secrets.add(value);
		}
	}
}

/** Where the harness keeps what it derives from an n8n install (beside the install, outside the repo). */
export function harnessCacheDir(install: N8nInstall): string {
	return path.join(path.dirname(install.dir), 'harness', install.version);
}

/**
 * The directory holding a migrated, empty SQLite database of the instance's n8n version (the
 * database file and its write-ahead log, as n8n left them), built on first use by `n8n
 * import:workflow` of nothing in a scratch user folder. Concurrent builders race harmlessly: each
 * builds in its own folder and the first rename wins.
 */
async function migratedDatabase(instance: N8nInstance): Promise<string> {
	const template = path.join(harnessCacheDir(instance.install), 'migrated-database');
	if (fs.existsSync(template)) return template;
	fs.mkdirSync(path.dirname(template), { recursive: true });
	const scratch = fs.mkdtempSync(`${template}.build-`);
	try {
		const emptyImport = path.join(scratch, 'empty.json');
		fs.writeFileSync(emptyImport, '[]');
		const result = await runGroup(
			instance.install.nodeBin,
			[instance.install.n8nBin, 'import:workflow', `--input=${emptyImport}`],
			{
				cwd: scratch,
				env: { ...instance.env(), N8N_USER_FOLDER: scratch },
				timeoutMs: CLI_TIMEOUT_MS,
			},
		);
		if (result.code !== 0) {
			throw new Error(`n8n could not create its database:\n${result.stdout}${result.stderr}`);
		}
		const built = path.join(scratch, 'database');
		fs.mkdirSync(built);
		for (const file of ['database.sqlite', 'database.sqlite-wal']) {
			const source = path.join(scratch, '.n8n', file);
			if (fs.existsSync(source)) fs.copyFileSync(source, path.join(built, file));
		}
		try {
			fs.renameSync(built, template);
		} catch (error) {
			if (!fs.existsSync(template)) throw error;
		}
		return template;
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true });
	}
}

/** Starts an instance, hands it to `use`, and always disposes of it. */
export async function withN8n<T>(
	options: N8nInstanceOptions,
	use: (n8n: N8nInstance) => Promise<T>,
): Promise<T> {
	const instance = await N8nInstance.create(options);
	try {
		return await use(instance);
	} finally {
		await instance.dispose();
	}
}

/** Where n8n loads a community package named `name` from, in a user folder (created if missing). */
export function communityPackageDir(userFolder: string, name: string): string {
	const nodeModules = path.join(userFolder, '.n8n', 'nodes', 'node_modules');
	fs.mkdirSync(nodeModules, { recursive: true });
	return path.join(nodeModules, name);
}

function placePackage(userFolder: string, packageRoot: string, mode: 'symlink' | 'copy'): void {
	const target = communityPackageDir(userFolder, PACKAGE_NAME);
	// A persistent user folder may hold an older copy or link: replace it.
	fs.rmSync(target, { recursive: true, force: true });
	if (mode === 'symlink') {
		fs.symlinkSync(packageRoot, target, 'dir');
		return;
	}
	fs.mkdirSync(target);
	for (const entry of ['package.json', 'index.js', 'dist']) {
		const source = path.join(packageRoot, entry);
		if (fs.existsSync(source)) fs.cpSync(source, path.join(target, entry), { recursive: true });
	}
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

function isUnfinished(status: string): boolean {
	return status === 'new' || status === 'running' || status === 'waiting';
}

/**
 * n8n 1.x on SQLite (pool size 0) finishes an execution in two writes outside a transaction: the status first,
 * then the run data. In between, a reader sees `success` with the run data of the start (no node has run), so a
 * finished execution counts only once its data shows a node's run or an error.
 */
function hasFinalData(execution: ExecutionRecord): boolean {
	if (
		execution.status !== 'success' &&
		execution.status !== 'error' &&
		execution.status !== 'crashed'
	)
		return true;
	const result = execution.data?.resultData;
	return (
		result !== undefined &&
		(Object.keys(result.runData ?? {}).length > 0 || result.error !== undefined)
	);
}

function pick(env: NodeJS.ProcessEnv, names: string[]): NodeJS.ProcessEnv {
	const picked: NodeJS.ProcessEnv = {};
	for (const name of names) if (env[name] !== undefined) picked[name] = env[name];
	return picked;
}

function sqlString(value: string): string {
	return value.replace(/'/g, "''");
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
