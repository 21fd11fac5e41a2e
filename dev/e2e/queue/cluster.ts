import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { request } from '../../n8n/http';
import { ensureN8nInstall, REPO_ROOT } from '../../n8n/install';
import {
	freePort,
	harnessCacheDir,
	N8nInstance,
	type CredentialImport,
	type ExecutionRecord,
	type ExecutionStatus,
	type PackageMode,
} from '../../n8n/n8n';
import { runGroup, spawnGroup, type GroupProcess } from '../../n8n/processes';
import type { RunExecutionData } from '../../n8n/run-data';
import type { WorkflowJson } from '../../n8n/workflows';

/**
 * n8n in queue mode on loopback, from the project's own scripts (scripts/queue/services.sh):
 * Redis, PostgreSQL, one main (`n8n start`, production webhooks off), workers (`n8n worker`) and
 * webhook processors (`n8n webhook`), each n8n process with its own user folder holding the package.
 * `dispose()` stops everything it started; processes.ts kills what is left if the test process dies.
 */

const SERVICES_SCRIPT = path.join(REPO_ROOT, 'scripts', 'queue', 'services.sh');
const DATABASE = 'n8n';
const READY_TIMEOUT_MS = 180_000;
const WORKER_READY = /n8n worker is now ready/;
const WEBHOOK_READY = /Webhook listener waiting for requests/;

export interface QueueClusterOptions {
	version: string;
	workers?: number;
	webhookProcessors?: number;
	workerConcurrency?: number;
	packageMode?: PackageMode;
	packageRoot?: string;
	/** Extra environment for every n8n process. */
	env?: Record<string, string>;
}

/** One n8n process of the cluster: its instance (user folder, ports, env) and its output. */
export interface ClusterProcess {
	role: 'worker' | 'webhook';
	instance: N8nInstance;
	process?: GroupProcess;
	/** The process exited by itself (not stopped or killed by the cluster). */
	died?: boolean;
	output: string[];
}

let servicesEnsured = false;

/** Installs redis-server and postgresql when missing (apt; a fresh CI machine). */
export function ensureQueueServices(): void {
	if (servicesEnsured) return;
	execFileSync('bash', [SERVICES_SCRIPT, 'ensure'], { stdio: ['ignore', 'inherit', 'inherit'] });
	servicesEnsured = true;
}

export class QueueCluster {
	private redis?: GroupProcess;
	private postgres?: GroupProcess;
	readonly workers: ClusterProcess[] = [];
	readonly webhookProcessors: ClusterProcess[] = [];
	private main?: N8nInstance;
	private readonly serviceOutput: string[] = [];
	/** main exited by itself and has not been started again successfully yet. */
	private mainDown = false;

	private constructor(
		private readonly options: QueueClusterOptions,
		private readonly root: string,
		private readonly redisPort: number,
		private readonly postgresPort: number,
	) {}

	static async create(options: QueueClusterOptions): Promise<QueueCluster> {
		ensureQueueServices();
		const root = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-queue-${options.version}-`));
		// PostgreSQL runs as `postgres` when we are root: it must reach its data directory.
		fs.chmodSync(root, 0o755);
		const [redisPort, postgresPort] = await Promise.all([freePort(), freePort()]);
		const cluster = new QueueCluster(options, root, redisPort, postgresPort);
		try {
			const seeded = cluster.seedPostgres();
			await cluster.startServices(seeded);
			await cluster.createProcesses();
			if (!seeded) await cluster.saveMigratedPostgres();
			return cluster;
		} catch (error) {
			await cluster.dispose();
			throw error;
		}
	}

	/** The n8n version every process of the cluster runs. */
	get version(): string {
		return this.options.version;
	}

	/** The main instance: imports, activation and CLI commands go through it (database: PostgreSQL). */
	get mainInstance(): N8nInstance {
		if (!this.main) throw new Error('cluster has no main instance');
		return this.main;
	}

	get webhookBaseUrls(): string[] {
		return this.webhookProcessors.map((each) => each.instance.baseUrl);
	}

	async importCredentials(credentials: CredentialImport[]): Promise<void> {
		// The main instance remembers the secrets: every log of the cluster is redacted with it.
		await this.mainInstance.importCredentials(credentials);
	}

	async importWorkflow(workflow: WorkflowJson): Promise<string> {
		return await this.mainInstance.importWorkflow(workflow);
	}

	async importWorkflows(workflows: WorkflowJson[]): Promise<void> {
		await this.mainInstance.importWorkflows(workflows);
	}

	/** As N8nInstance.activate, in PostgreSQL: what `update:workflow --active=true` / `publish:workflow` write. */
	async activate(workflowId: string, name: string): Promise<void> {
		const changed = await this.psqlJson<{ id: string }[]>(
			`WITH changed AS (UPDATE workflow_entity SET active = true, "activeVersionId" = "versionId" WHERE id = '${workflowId.replace(/'/g, "''")}' RETURNING id) SELECT coalesce(json_agg(changed), '[]'::json) FROM changed`,
		);
		if (changed.length !== 1)
			throw new Error(`cannot activate workflow ${workflowId}: it is not imported`);
		this.mainInstance.expectActivation(workflowId, name);
	}

	/** Starts main (waits for activation), then workers and webhook processors until each is ready. */
	async start(): Promise<void> {
		await this.mainInstance.start();
		await Promise.all([
			...this.workers.map((each) => this.startProcess(each, this.workerArgs(), WORKER_READY)),
			...this.webhookProcessors.map((each) => this.startProcess(each, ['webhook'], WEBHOOK_READY)),
		]);
	}

	/** Everything a worker printed (secrets of imported credentials redacted). */
	workerLog(index: number): string {
		const worker = this.workers[index];
		return this.mainInstance.redact(worker.output.join(''));
	}

	/** Execution ids each worker logged as started (`Worker started execution N`). */
	executionsByWorker(): string[][] {
		return this.workers.map((_, index) =>
			[...this.workerLog(index).matchAll(/Worker started execution (\d+)/g)].map(
				(match) => match[1],
			),
		);
	}

	/** Every execution id a worker logged as started. */
	startedExecutionIds(): Set<string> {
		return new Set(this.executionsByWorker().flat());
	}

	/** All logs of all processes, for failure messages. */
	logs(): string {
		const parts = [`--- main\n${this.mainInstance.serverLog()}`];
		for (const each of [...this.workers, ...this.webhookProcessors]) {
			parts.push(
				`--- ${each.role} ${each.instance.port}\n${this.mainInstance.redact(each.output.join(''))}`,
			);
		}
		return parts.join('\n');
	}

	/** Executions in PostgreSQL, oldest first, with decoded run data. */
	async executions(workflowId: string): Promise<ExecutionRecord[]> {
		const rows = await this.sql<{
			id: number;
			workflowId: string;
			status: string;
			mode: string;
			finished: boolean;
			data: string | null;
		}>(
			`SELECT e.id, e."workflowId", e.status, e.mode, e.finished, d.data FROM execution_entity e
			 LEFT JOIN execution_data d ON d."executionId" = e.id
			 WHERE e."workflowId" = '${workflowId.replace(/'/g, "''")}' ORDER BY e.id`,
		);
		const flatted = this.requireFromN8n('flatted') as { parse(text: string): unknown };
		return rows.map((row) => ({
			id: String(row.id),
			workflowId: row.workflowId,
			status: row.status,
			mode: row.mode,
			finished: row.finished,
			data: row.data ? (flatted.parse(row.data) as RunExecutionData) : undefined,
		}));
	}

	/** Id and status of each execution of the workflow, oldest first, without their data. */
	async executionStatuses(workflowId: string): Promise<ExecutionStatus[]> {
		const rows = await this.sql<{ id: number; status: string }>(
			`SELECT id, status FROM execution_entity WHERE "workflowId" = '${workflowId.replace(/'/g, "''")}' ORDER BY id`,
		);
		return rows.map((row) => ({ id: String(row.id), status: row.status }));
	}

	/** When each execution of the workflow stopped (epoch ms), by execution id. */
	async stopTimes(workflowId: string): Promise<Map<string, number>> {
		const rows = await this.sql<{ id: number; stoppedAt: string | null }>(
			`SELECT id, "stoppedAt" FROM execution_entity WHERE "workflowId" = '${workflowId.replace(/'/g, "''")}'`,
		);
		return new Map(
			rows
				.filter((row) => row.stoppedAt)
				.map((row) => [String(row.id), Date.parse(row.stoppedAt!)]),
		);
	}

	/** PostgreSQL goes away at once (SIGKILL of the server and its backends: an outage, no shutdown). */
	async stopPostgres(): Promise<void> {
		await this.postgres?.kill();
		this.postgres = undefined;
	}

	/** PostgreSQL starts again on the same data (crash recovery) and port. */
	async startPostgres(): Promise<void> {
		this.spawnPostgres();
		await this.waitForPostgres();
	}

	/** Redis goes away at once (SIGKILL). It persists nothing, as configured: queued jobs go with it. */
	async stopRedis(): Promise<void> {
		await this.redis?.kill();
		this.redis = undefined;
	}

	/** Redis starts again, empty, on the same port. */
	async startRedis(): Promise<void> {
		this.spawnRedis();
		await this.waitForRedis();
	}

	/** SIGKILL of one worker or webhook processor (a crash); `restart` brings it back. */
	async killProcess(role: 'worker' | 'webhook', index: number): Promise<void> {
		const member = (role === 'worker' ? this.workers : this.webhookProcessors)[index];
		const running = member.process;
		member.process = undefined;
		await running?.kill();
	}

	async restartProcess(role: 'worker' | 'webhook', index: number): Promise<void> {
		const member = (role === 'worker' ? this.workers : this.webhookProcessors)[index];
		if (role === 'worker') await this.startProcess(member, this.workerArgs(), WORKER_READY);
		else await this.startProcess(member, ['webhook'], WEBHOOK_READY);
	}

	/**
	 * Stops every worker and webhook processor and starts it again, all at once (main stays): a cluster whose processes
	 * start afresh, for a fault burst that must not inherit what the last one left behind.
	 */
	async restartWorkersAndProcessors(): Promise<void> {
		const members = [...this.workers, ...this.webhookProcessors];
		await Promise.all(members.map((member) => this.stopProcess(member)));
		await Promise.all(
			members.map((member) =>
				member.role === 'worker'
					? this.startProcess(member, this.workerArgs(), WORKER_READY)
					: this.startProcess(member, ['webhook'], WEBHOOK_READY),
			),
		);
	}

	/**
	 * Starts again every n8n process that exited by itself (as a container's restart policy would: n8n exits when it
	 * cannot reach Redis for long). Returns what was restarted.
	 */
	async restartDied(): Promise<string[]> {
		const restarted: string[] = [];
		// A restart can fail while what n8n needs is still down (it exits again): it is tried again next time.
		const attempt = async (name: string, restart: () => Promise<void>) => {
			try {
				await restart();
				restarted.push(name);
			} catch {
				restarted.push(`${name} (failed, retried)`);
			}
		};
		if (this.mainInstance.died || this.mainDown) {
			this.mainDown = true;
			await attempt('main', async () => {
				await this.mainInstance.stop();
				await this.mainInstance.start(600_000);
				this.mainDown = false;
			});
		}
		for (const [role, members] of [
			['worker', this.workers],
			['webhook', this.webhookProcessors],
		] as const) {
			for (const [index, member] of members.entries()) {
				if (!member.died) continue;
				member.process = undefined;
				await attempt(`${role} ${index}`, async () => await this.restartProcess(role, index));
			}
		}
		return restarted;
	}

	/**
	 * Restarts (SIGKILL, start) every webhook processor whose `/healthz/readiness` has not answered 200 for
	 * `unreadyLimitMs` while PostgreSQL and Redis are up: a liveness probe on readiness, which n8n 1.x needs (its
	 * processors stay disconnected after a database outage). Returns what was restarted.
	 */
	async restartUnready(
		unreadyLimitMs: number,
		unreadySince: Map<number, number>,
	): Promise<string[]> {
		const restarted: string[] = [];
		const servicesUp = this.postgres !== undefined && this.redis !== undefined;
		for (const [index, member] of this.webhookProcessors.entries()) {
			if (!servicesUp || !member.process || (await isReady(member.instance.baseUrl))) {
				unreadySince.delete(index);
				continue;
			}
			const since = unreadySince.get(index) ?? Date.now();
			unreadySince.set(index, since);
			if (Date.now() - since < unreadyLimitMs) continue;
			unreadySince.delete(index);
			const name = `webhook ${index} (unready ${Math.round((Date.now() - since) / 1000)} s)`;
			try {
				await this.killProcess('webhook', index);
				await this.restartProcess('webhook', index);
				restarted.push(name);
			} catch {
				// Exited again while starting: restartDied tries it next round.
				member.died = true;
				restarted.push(`${name} (failed, retried)`);
			}
		}
		return restarted;
	}

	/**
	 * Watches the n8n processes every 2 s and, as a container's restart policy would, starts again any that exit by
	 * themselves; with `restartUnreadyAfterMs`, also restarts webhook processors whose readiness stays failed that
	 * long (restartUnready). The returned function stops watching and resolves with what was restarted.
	 */
	supervise(options: { restartUnreadyAfterMs?: number } = {}): () => Promise<string[]> {
		const restarted: string[] = [];
		const unreadySince = new Map<number, number>();
		let watching = true;
		const loop = (async () => {
			while (watching) {
				restarted.push(...(await this.restartDied()));
				if (options.restartUnreadyAfterMs !== undefined) {
					restarted.push(
						...(await this.restartUnready(options.restartUnreadyAfterMs, unreadySince)),
					);
				}
				await sleep(2000);
			}
		})();
		return async () => {
			watching = false;
			await loop;
			return restarted;
		};
	}

	/** Stops one worker (the queue keeps its jobs for the others). */
	async stopWorker(index: number): Promise<void> {
		await this.stopProcess(this.workers[index]);
	}

	/** Starts a stopped worker again and waits until it is ready. */
	async startWorker(index: number): Promise<void> {
		await this.startProcess(this.workers[index], this.workerArgs(), WORKER_READY);
	}

	/** Polls until at least `count` executions of the workflow have finished (any outcome). */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 120_000,
	): Promise<ExecutionRecord[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			// Statuses only while waiting: the data of hundreds of executions is read once, at the end.
			const all = await this.executionStatuses(workflowId);
			const done = all.filter((each) => !['new', 'running', 'waiting'].includes(each.status));
			if (done.length >= count && done.length === all.length) {
				const finished = new Set(done.map((each) => each.id));
				return (await this.executions(workflowId)).filter((each) => finished.has(each.id));
			}
			if (Date.now() > deadline) {
				throw new Error(
					`${done.length}/${count} executions of ${workflowId} finished (${all.length} recorded) after ${timeoutMs} ms\n${this.logs()}`,
				);
			}
			await sleep(250);
		}
	}

	/** One query as the `postgres` superuser, rows as JSON (psql of the installed PostgreSQL). */
	async sql<Row>(query: string): Promise<Row[]> {
		return await this.psqlJson<Row[]>(`SELECT coalesce(json_agg(t), '[]'::json) FROM (${query}) t`);
	}

	/** Runs one statement that selects a single JSON value, and returns it parsed. */
	private async psqlJson<T>(statement: string): Promise<T> {
		const result = await runGroup(
			'psql',
			[
				'-X',
				'-q',
				'-At',
				'-h',
				'127.0.0.1',
				'-p',
				String(this.postgresPort),
				'-U',
				'postgres',
				'-d',
				DATABASE,
				'-c',
				statement,
			],
			{ env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeoutMs: 60_000 },
		);
		if (result.code !== 0) throw new Error(`psql failed: ${result.stderr}`);
		return JSON.parse(result.stdout) as T;
	}

	/** Stops every n8n process, then PostgreSQL and Redis, and deletes the temp folders. */
	async dispose(): Promise<void> {
		await Promise.all(
			[...this.webhookProcessors, ...this.workers].map((each) => this.stopProcess(each)),
		);
		await this.main?.stop();
		await Promise.all([this.postgres?.stop(15_000), this.redis?.stop(5_000)]);
		this.postgres = undefined;
		this.redis = undefined;
		for (const instance of [
			this.main,
			...this.workers.map((each) => each.instance),
			...this.webhookProcessors.map((each) => each.instance),
		]) {
			await instance?.dispose();
		}
		if (process.env.E2E_KEEP_USER_FOLDER !== '1')
			fs.rmSync(this.root, { recursive: true, force: true });
	}

	private spawnRedis(): void {
		this.redis = spawnGroup('bash', [SERVICES_SCRIPT, 'redis', String(this.redisPort)], {
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
			onOutput: (chunk) => this.serviceOutput.push(chunk),
		});
	}

	private spawnPostgres(): void {
		this.postgres = spawnGroup(
			'bash',
			[SERVICES_SCRIPT, 'postgres', String(this.postgresPort), path.join(this.root, 'postgres')],
			{
				env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
				onOutput: (chunk) => this.serviceOutput.push(chunk),
			},
		);
	}

	/**
	 * PostgreSQL's data directory with n8n's database created and migrated, one per n8n version and PostgreSQL major,
	 * kept beside the n8n installs: a new cluster starts from a copy instead of initdb and n8n's migrations (seconds
	 * of CPU for n8n and PostgreSQL each, in every cluster).
	 */
	private migratedTemplate(): string {
		const major = execFileSync('bash', [SERVICES_SCRIPT, 'major'], { encoding: 'utf8' }).trim();
		return path.join(harnessCacheDir(ensureN8nInstall(this.options.version)), `postgres-${major}`);
	}

	/** Copies the migrated data directory into this cluster's, when one was kept. */
	private seedPostgres(): boolean {
		const template = this.migratedTemplate();
		if (!fs.existsSync(path.join(template, 'PG_VERSION'))) return false;
		const dir = path.join(this.root, 'postgres');
		fs.mkdirSync(dir, { recursive: true });
		// cp -a keeps the owner (`postgres` when we are root) and the modes PostgreSQL insists on.
		execFileSync('cp', ['-a', template, path.join(dir, 'data')]);
		return true;
	}

	/** Lets n8n migrate the new database, then keeps a copy of the data directory, PostgreSQL shut down cleanly. */
	private async saveMigratedPostgres(): Promise<void> {
		await this.mainInstance.importWorkflows([]);
		await this.postgres?.stop(30_000);
		this.postgres = undefined;
		const template = this.migratedTemplate();
		fs.mkdirSync(path.dirname(template), { recursive: true });
		const building = `${template}.build-${process.pid}-${Date.now()}`;
		execFileSync('cp', ['-a', path.join(this.root, 'postgres', 'data'), building]);
		try {
			fs.renameSync(building, template);
		} catch {
			// Another cluster kept its copy first.
			fs.rmSync(building, { recursive: true, force: true });
		}
		await this.startPostgres();
	}

	private async startServices(seeded: boolean): Promise<void> {
		const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
		this.spawnRedis();
		this.spawnPostgres();
		await Promise.all([this.waitForRedis(), this.waitForPostgres()]);
		// A copied data directory holds n8n's database already.
		if (seeded) return;
		const created = await runGroup(
			'psql',
			[
				'-X',
				'-q',
				'-h',
				'127.0.0.1',
				'-p',
				String(this.postgresPort),
				'-U',
				'postgres',
				'-d',
				'postgres',
				'-c',
				`CREATE DATABASE ${DATABASE}`,
			],
			{ env, timeoutMs: 60_000 },
		);
		if (created.code !== 0) throw new Error(`could not create the database: ${created.stderr}`);
	}

	private async waitForRedis(): Promise<void> {
		await this.pollUntil('Redis', async () => (await redisPing(this.redisPort)) === '+PONG');
	}

	private async waitForPostgres(): Promise<void> {
		const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
		await this.pollUntil('PostgreSQL', async () => {
			const probe = await runGroup(
				'pg_isready',
				['-q', '-h', '127.0.0.1', '-p', String(this.postgresPort)],
				{ env, timeoutMs: 10_000 },
			);
			return probe.code === 0;
		});
	}

	private async pollUntil(what: string, ready: () => Promise<boolean>): Promise<void> {
		const deadline = Date.now() + 60_000;
		while (!(await ready().catch(() => false))) {
			if (Date.now() > deadline)
				throw new Error(`${what} did not start:\n${this.serviceOutput.join('')}`);
			await sleep(200);
		}
	}

	/** The environment every n8n process of the cluster shares: queue mode on our Redis and PostgreSQL. */
	private queueEnv(): Record<string, string> {
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.postgresPort),
			DB_POSTGRESDB_DATABASE: DATABASE,
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redisPort),
			// Only the webhook processors take production webhooks.
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
			QUEUE_HEALTH_CHECK_ACTIVE: 'false',
			// 2.x logs "Activated workflow" (the harness's readiness signal) only without the publication service.
			N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false',
			...this.options.env,
		};
	}

	private workerArgs(): string[] {
		return ['worker', `--concurrency=${this.options.workerConcurrency ?? 5}`];
	}

	private async createProcesses(): Promise<void> {
		const create = () =>
			N8nInstance.create({
				version: this.options.version,
				packageMode: this.options.packageMode,
				packageRoot: this.options.packageRoot,
				env: this.queueEnv(),
			});
		this.main = await create();
		for (let index = 0; index < (this.options.workers ?? 2); index++) {
			this.workers.push({ role: 'worker', instance: await create(), output: [] });
		}
		for (let index = 0; index < (this.options.webhookProcessors ?? 2); index++) {
			this.webhookProcessors.push({ role: 'webhook', instance: await create(), output: [] });
		}
	}

	private async startProcess(member: ClusterProcess, args: string[], ready: RegExp): Promise<void> {
		const { instance } = member;
		// Output is kept across restarts (executionsByWorker reads all of it); readiness is judged on the new part.
		const from = member.output.length;
		const started = spawnGroup(instance.install.nodeBin, [instance.install.n8nBin, ...args], {
			cwd: instance.userFolder,
			env: instance.env(),
			onOutput: (chunk) => member.output.push(chunk),
		});
		member.process = started;
		member.died = false;
		void started.exited.then(() => {
			if (member.process === started) member.died = true;
		});
		const deadline = Date.now() + READY_TIMEOUT_MS;
		let exitCode: number | null | undefined;
		void member.process.exited.then((code) => {
			exitCode = code;
		});
		while (!ready.test(member.output.slice(from).join(''))) {
			if (exitCode !== undefined || Date.now() > deadline) {
				throw new Error(
					`n8n ${args[0]} (port ${instance.port}) not ready (exit ${exitCode}):\n${this.mainInstance.redact(member.output.join(''))}`,
				);
			}
			await sleep(200);
		}
	}

	private async stopProcess(member: ClusterProcess): Promise<void> {
		const running = member.process;
		member.process = undefined;
		await running?.stop(15_000);
	}

	private requireFromN8n(name: string): unknown {
		const n8nPackageDir = path.dirname(path.dirname(this.mainInstance.install.n8nBin));
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return require(require.resolve(name, { paths: [n8nPackageDir] }));
	}
}

/** n8n's readiness: 200 once its database is connected and migrated. */
async function isReady(baseUrl: string): Promise<boolean> {
	try {
		return (await request(new URL('/healthz/readiness', baseUrl).toString())).status === 200;
	} catch {
		return false;
	}
}

async function redisPing(port: number): Promise<string> {
	return await new Promise((resolve, reject) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		let answer = '';
		socket.setEncoding('utf8');
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk: string) => {
			answer += chunk;
			if (answer.includes('\r\n')) socket.end();
		});
		socket.once('close', () => resolve(answer.trim()));
		socket.once('error', reject);
	});
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
