/**
 * `npm run bench [-- --n8n 2.40.7 --rows 100000 --latencies 0,20,50,100 --concurrencies 4,16
 *   --org-rows 2800 --org-latencies 0,50 --small-rows 10000 --pid-items 1000 --token-runs 50
 *   --cli-token-runs 10 --events 2000 --senders 20 --warmup 20 --rounds 4 --export-rows 100000
 *   --export-rounds 2 --export-warmup 1 --export-seed 5 --export-latency 50 --export-concurrencies 2,4 --export-floor 1 --enrich-items 10000 --enrich-partners 500 --enrich-latency 50
 *   --enrich-ai-items 1000 --enrich-ai-distinct 1000
 *   --only returnAll,orgReturnAll,getByPid,enrichment,tokens,trigger,scheduledExport
 *   --trigger-contenders ours,oursAfterSaved,careful,minimal,plain]`
 *
 * Benchmarks of the package's nodes against n8n's built-in peers, in one real n8n (via the e2e harness) on the
 * emulators, over loopback only. `BENCH_N8N_ENV='{"NAME": "value"}'` adds environment variables to every n8n
 * process (n8n settings such as N8N_EXPRESSION_ENGINE_POOL_SIZE; they apply to both contenders alike). Prints the
 * tables to stdout (progress goes to stderr) and writes dev/bench/results.json and dev/bench/results.md. Figures, not assertions: nothing here fails on a target.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

import { startSandbox, type Sandbox } from '../emulators';
import { generateSecret } from '../emulators/webhook/sender';
import { n8nEnvFrom } from '../n8n/extraEnv';
import { request } from '../n8n/http';
import { REPO_ROOT } from '../n8n/install';
import { N8nInstance, type CredentialImport } from '../n8n/n8n';
import { waitPastStartRefusal } from '../n8n/sip-start-refusal';
import type { CredentialRef } from '../n8n/workflows';
import { idsOf } from './lib/importing';
import { fetchAiToken } from './lib/tokens';
import { renderResults, type BenchResults } from './lib/results';
import { getByPidWorkflows, planPids, runGetByPid } from './sections/getByPid';
import {
	DEFAULT_ACTION_CONCURRENCY,
	DEFAULT_TRIGGER_CONCURRENCY,
} from '../../nodes/shared/n8n/limits';
import { pagingWorkflows, runPaging, type PagingSetup } from './sections/returnAll';
import { runTokensViaCli, runTokensViaWebhook } from './sections/tokens';
import {
	runTrigger,
	TRIGGER_KINDS,
	TRIGGER_N8N_ENV,
	triggerWorkflows,
	type TriggerKind,
} from './sections/trigger';
import { runScheduledExport } from './sections/scheduledExport';
import {
	AI_ENRICHMENT,
	enrichmentSection,
	enrichmentWorkflows,
	ORG_ENRICHMENT,
	planFor,
	runEnrichment,
	type EnrichmentSetup,
} from './sections/enrichment';
import { placeFloorPackage } from './lib/floorPackage';
import { tokenCliWorkflow, tokenServerWorkflow } from './lib/workflows';
import { aiCredentialImport, orgCredentialImport } from '../n8n/credentials';

const SECTIONS = [
	'returnAll',
	'orgReturnAll',
	'getByPid',
	'enrichment',
	'tokens',
	'trigger',
	'scheduledExport',
] as const;
type Section = (typeof SECTIONS)[number];

interface BenchOptions {
	n8nVersion: string;
	rows: number;
	/** Rows of the second, smaller emulator used for PID lookups and tokens (where 100k rows add nothing). */
	smallRows: number;
	pidItems: number;
	tokenRuns: number;
	cliTokenRuns: number;
	events: number;
	senders: number;
	warmup: number;
	rounds: number;
	/** Delays the bench server adds per GraphQL request, one Return All scenario each. */
	latenciesMs: number[];
	/** Max Concurrent Requests tried besides the node's default (DEFAULT_ACTION_CONCURRENCY). */
	concurrencies: number[];
	/** Scale of the Organization emulator for its Return All (2,800: about 10,000 organizations). */
	orgRows: number;
	orgLatenciesMs: number[];
	/** Speech tasks of the scheduled export (the emulator's rows per view). */
	exportRows: number;
	/** Measured runs per contender of the scheduled export, and whether an unmeasured warm-up run comes first. */
	exportRounds: number;
	exportWarmup: boolean;
	/**
	 * Seed of the export's emulator. The emulator derives each row from a 32-bit seed, so about one pair of rows per
	 * 100,000 comes out identical (same task_id); seed 5 gives 100,000 distinct speech tasks.
	 */
	exportSeed: number;
	/** Delay per request to the AI API in the scheduled export (both contenders), in ms. */
	exportLatencyMs: number;
	/** Max Concurrent Requests tried for our trigger besides its default. */
	exportConcurrencies: number[];
	/** Also run the export's floor: the same flow with a trigger that emits the rows parsed already. */
	exportFloor: boolean;
	/** Enrichment: input items, distinct content partners among them, delay per Organization API request. */
	enrichItems: number;
	enrichPartners: number;
	enrichLatencyMs: number;
	/** Enrichment, AI case: input items with speech task ids, distinct task ids among them (0 items: no AI case). */
	enrichAiItems: number;
	enrichAiDistinct: number;
	only: Set<Section>;
	/** Trigger section: the contenders measured (default all; e.g. ours,minimal to compare two without the rest). */
	triggerContenders: TriggerKind[];
}

function parseOptions(argv: string[]): BenchOptions {
	const flags = new Map<string, string>();
	for (let index = 0; index < argv.length; index += 2) {
		const name = argv[index];
		if (!name.startsWith('--') || argv[index + 1] === undefined)
			throw new Error(`expected --flag value pairs, got "${name}"`);
		flags.set(name.slice(2), argv[index + 1]);
	}
	const integer = (name: string, fallback: number) => {
		const value = Number(flags.get(name) ?? fallback);
		if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
		flags.delete(name);
		return value;
	};
	const integers = (name: string, fallback: string) => {
		const values = (flags.get(name) ?? fallback)
			.split(',')
			.filter(Boolean)
			.map((each) => Number(each.trim()));
		if (values.some((value) => !Number.isInteger(value) || value < 0))
			throw new Error(`--${name} takes whole numbers separated by commas`);
		flags.delete(name);
		return values;
	};
	const only = (flags.get('only') ?? SECTIONS.join(','))
		.split(',')
		.map((each) => each.trim()) as Section[];
	for (const section of only)
		if (!SECTIONS.includes(section)) throw new Error(`--only takes ${SECTIONS.join(', ')}`);
	const options: BenchOptions = {
		n8nVersion: flags.get('n8n') ?? '2.40.7',
		rows: integer('rows', 100_000),
		smallRows: integer('small-rows', 10_000),
		pidItems: integer('pid-items', 1000),
		tokenRuns: integer('token-runs', 50),
		cliTokenRuns: integer('cli-token-runs', 10),
		events: integer('events', 2000),
		senders: integer('senders', 20),
		warmup: integer('warmup', 20),
		rounds: Math.max(1, integer('rounds', 4)),
		latenciesMs: integers('latencies', '0,20,50,100'),
		concurrencies: integers('concurrencies', '4,16').filter(
			(each) => each > 0 && each !== DEFAULT_ACTION_CONCURRENCY,
		),
		orgRows: integer('org-rows', 2800),
		orgLatenciesMs: integers('org-latencies', '0,50'),
		exportRows: Math.max(1, integer('export-rows', 100_000)),
		exportRounds: Math.max(1, integer('export-rounds', 2)),
		exportWarmup: integer('export-warmup', 1) > 0,
		exportSeed: integer('export-seed', 5),
		exportLatencyMs: integer('export-latency', 50),
		exportConcurrencies: integers('export-concurrencies', '2,4').filter(
			(each) => each > 0 && each !== DEFAULT_TRIGGER_CONCURRENCY,
		),
		exportFloor: integer('export-floor', 1) > 0,
		// 0 items leave that case of the enrichment section out.
		enrichItems: integer('enrich-items', 10_000),
		enrichPartners: Math.max(1, integer('enrich-partners', 500)),
		enrichLatencyMs: integer('enrich-latency', 50),
		enrichAiItems: integer('enrich-ai-items', 1000),
		enrichAiDistinct: 0,
		only: new Set(only),
		triggerContenders: (flags.get('trigger-contenders') ?? TRIGGER_KINDS.join(','))
			.split(',')
			.map((each) => each.trim()) as TriggerKind[],
	};
	for (const kind of options.triggerContenders)
		if (!TRIGGER_KINDS.includes(kind))
			throw new Error(`--trigger-contenders takes ${TRIGGER_KINDS.join(', ')}`);
	options.enrichAiDistinct = Math.max(
		1,
		Math.min(options.enrichAiItems, integer('enrich-ai-distinct', options.enrichAiItems)),
	);
	flags.delete('n8n');
	flags.delete('only');
	flags.delete('trigger-contenders');
	if (flags.size > 0)
		throw new Error(`unknown flag(s): ${[...flags.keys()].map((name) => `--${name}`).join(', ')}`);
	return options;
}

/** BENCH_N8N_ENV: a JSON object of string values, added to every n8n process's environment. */
function extraN8nEnv(): Record<string, string> {
	const extra = n8nEnvFrom('BENCH_N8N_ENV');
	if (Object.keys(extra).length > 0)
		log(`n8n runs with BENCH_N8N_ENV: ${Object.keys(extra).join(', ')}`);
	return extra;
}

function log(line: string): void {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

function builtNodes(): { ai: boolean; org: boolean; sip: boolean } {
	const built = (name: string) =>
		fs.existsSync(path.join(REPO_ROOT, 'dist', 'nodes', name, `${name}.node.js`));
	return {
		ai: built('ArchiveAiMetadata'),
		org: built('ArchiveOrganization'),
		sip: built('ArchiveSipStatusTrigger'),
	};
}

function newId(): string {
	return randomBytes(12)
		.toString('base64')
		.replace(/[^A-Za-z0-9]/g, 'x')
		.slice(0, 16);
}

/** An Organization API token for the HTTP Request node's header credential and the bare pager. */
async function fetchOrgToken(sandbox: Sandbox): Promise<string> {
	const basic = Buffer.from(`${sandbox.org.username}:${sandbox.org.password}`).toString('base64');
	const response = await request(
		`${sandbox.org.authUrl}/token?grant_type=client_credentials&expires_in=3600`,
		{ method: 'GET', headers: { authorization: `Basic ${basic}` } },
	);
	if (response.status !== 200) throw new Error(`org token request answered ${response.status}`);
	return (JSON.parse(response.body) as { access_token: string }).access_token;
}

interface Credential extends CredentialImport {
	ref: CredentialRef;
}

function credential(name: string, type: string, data: Record<string, unknown>): Credential {
	const id = newId();
	return { id, name, type, data, ref: { id, name } };
}

function aiCredential(name: string, sandbox: Sandbox): Credential {
	const ref = { id: newId(), name };
	return { ...aiCredentialImport(ref, sandbox, { lifetimeSeconds: 3600 }), ref };
}

function orgCredential(name: string, sandbox: Sandbox): Credential {
	const ref = { id: newId(), name };
	return {
		...orgCredentialImport(ref, sandbox, { lifetimeSeconds: 3600, jwtPlacement: 'header' }),
		ref,
	};
}

function headerCredential(name: string, token: string): Credential {
	return credential(name, 'httpHeaderAuth', { name: 'Authorization', value: `Bearer ${token}` });
}

function withoutRef({ ref: _ref, ...imported }: Credential): CredentialImport {
	return imported;
}

function machine(n8n: N8nInstance): BenchResults['machine'] {
	const cpus = os.cpus();
	return {
		cpu: cpus[0]?.model ?? 'unknown',
		cores: cpus.length,
		memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
		n8nNode: execFileSync(n8n.install.nodeBin, ['--version'], { encoding: 'utf8' }).trim(),
		benchNode: process.version,
		loadAverageAtStart: os.loadavg().map((each) => Math.round(each * 100) / 100),
	};
}

async function main(): Promise<void> {
	const options = parseOptions(process.argv.slice(2));
	const built = builtNodes();
	const anyBuilt = built.ai || built.org || built.sip;
	if (!anyBuilt) log('dist/ is not built (npm run build): only the built-in peers run');
	const started = Date.now();
	log(
		`emulators: ${options.only.has('returnAll') ? `${options.rows} rows (return all), ` : ''}${options.only.has('scheduledExport') ? `${options.exportRows} rows (scheduled export), ` : ''}${options.smallRows} rows (PIDs, tokens)`,
	);
	// Bench mode: pages are served from bytes rendered once, so the server is not what is measured.
	const large = options.only.has('returnAll')
		? await startSandbox({ rows: options.rows, benchMode: true })
		: undefined;
	const orgSandbox = options.only.has('orgReturnAll')
		? await startSandbox({ rows: options.orgRows, benchMode: true })
		: undefined;
	const exportSandbox = options.only.has('scheduledExport')
		? await startSandbox({ rows: options.exportRows, benchMode: true, seed: options.exportSeed })
		: undefined;
	const small = await startSandbox({ rows: options.smallRows });
	// Bench mode: the one-per-item contenders ask the same 500 questions 20 times; stored bytes answer them.
	const enrichSandbox = options.only.has('enrichment')
		? await startSandbox({ rows: 2000, benchMode: true })
		: undefined;
	// A copy of the built package (package.json, index.js, dist), so a rebuild during the run cannot change it.
	// The section's own needs first, so that BENCH_N8N_ENV can still override them.
	const n8nEnv = {
		...(options.only.has('trigger') ? TRIGGER_N8N_ENV : {}),
		...extraN8nEnv(),
	};
	const n8n = await N8nInstance.create({
		version: options.n8nVersion,
		packageMode: anyBuilt ? 'copy' : 'none',
		env: n8nEnv,
	});
	const results: BenchResults = {
		generatedAt: new Date().toISOString(),
		n8nVersion: n8n.version,
		machine: machine(n8n),
		options: { ...options, only: [...options.only] },
		n8nEnv,
		packageBuilt: built,
		errors: [],
	};
	let largeClosed = false;
	let orgClosed = false;
	const guard = async (section: string, body: () => Promise<void>) => {
		try {
			await body();
		} catch (error) {
			const message = n8n.redact((error as Error).message).slice(0, 2_000);
			log(`${section} failed: ${message}`);
			results.errors.push({ section, message });
		}
	};
	try {
		const smallToken = await fetchAiToken(small);
		const creds = {
			aiSmall: aiCredential('bench ai small', small),
			headerSmall: headerCredential('bench header small', smallToken),
			aiTokensCli: aiCredential('bench ai tokens cli', small),
			orgTokensCli: orgCredential('bench org tokens cli', small),
			aiTokensServer: aiCredential('bench ai tokens server', small),
			orgTokensServer: orgCredential('bench org tokens server', small),
			sip: credential('bench sip secret', 'archiveSipWebhookApi', {
				signingSecret: generateSecret(32),
			}),
			...(large
				? {
						aiLarge: aiCredential('bench ai large', large),
						headerLarge: headerCredential('bench header large', await fetchAiToken(large)),
					}
				: {}),
			...(enrichSandbox
				? {
						orgEnrich: orgCredential('bench org enrichment', enrichSandbox),
						headerEnrich: headerCredential(
							'bench header enrichment',
							await fetchOrgToken(enrichSandbox),
						),
						aiEnrich: aiCredential('bench ai enrichment', enrichSandbox),
						headerAiEnrich: headerCredential(
							'bench header ai enrichment',
							await fetchAiToken(enrichSandbox),
						),
					}
				: {}),
			...(orgSandbox
				? {
						orgPaging: orgCredential('bench org return all', orgSandbox),
						headerOrg: headerCredential('bench header org', await fetchOrgToken(orgSandbox)),
					}
				: {}),
		};
		await n8n.importCredentials(Object.values(creds).map(({ ref: _ref, ...imported }) => imported));

		// Everything is imported (in one CLI call) and activated while n8n is stopped; the CLI cases run before
		// the server starts.
		const pagingCommon = {
			n8n,
			packageBuilt: false,
			defaultConcurrency: DEFAULT_ACTION_CONCURRENCY,
			otherConcurrencies: options.concurrencies,
			log,
		};
		const returnAllSetup: Omit<PagingSetup, 'token'> | undefined =
			large && creds.aiLarge && creds.headerLarge
				? {
						...pagingCommon,
						api: 'ai',
						sandbox: large,
						ourCredential: creds.aiLarge.ref,
						headerCredential: creds.headerLarge.ref,
						packageBuilt: built.ai,
						latenciesMs: options.latenciesMs,
					}
				: undefined;
		const orgSetup: Omit<PagingSetup, 'token'> | undefined =
			orgSandbox && creds.orgPaging && creds.headerOrg
				? {
						...pagingCommon,
						api: 'org',
						sandbox: orgSandbox,
						ourCredential: creds.orgPaging.ref,
						headerCredential: creds.headerOrg.ref,
						packageBuilt: built.org,
						latenciesMs: options.orgLatenciesMs,
					}
				: undefined;
		const returnAll = returnAllSetup ? pagingWorkflows(returnAllSetup, 'ai-') : {};
		const orgReturnAll = orgSetup ? pagingWorkflows(orgSetup, 'org-') : {};
		const pidSetup = {
			n8n,
			sandbox: small,
			aiCredential: creds.aiSmall.ref,
			headerCredential: creds.headerSmall.ref,
			items: options.pidItems,
			packageBuilt: built.ai,
			log,
		};
		const pidPlan = planPids(small, options.pidItems);
		const pid = options.only.has('getByPid') ? getByPidWorkflows(pidSetup, pidPlan) : {};
		const enrichSetup: EnrichmentSetup | undefined =
			enrichSandbox && creds.orgEnrich && creds.headerEnrich && options.enrichItems > 0
				? {
						n8n,
						sandbox: enrichSandbox,
						target: ORG_ENRICHMENT,
						ourCredential: creds.orgEnrich.ref,
						headerCredential: creds.headerEnrich.ref,
						items: options.enrichItems,
						distinct: options.enrichPartners,
						latencyMs: options.enrichLatencyMs,
						packageBuilt: built.org,
						log,
					}
				: undefined;
		const aiEnrichSetup: EnrichmentSetup | undefined =
			enrichSandbox && creds.aiEnrich && creds.headerAiEnrich && options.enrichAiItems > 0
				? {
						n8n,
						sandbox: enrichSandbox,
						target: AI_ENRICHMENT,
						ourCredential: creds.aiEnrich.ref,
						headerCredential: creds.headerAiEnrich.ref,
						items: options.enrichAiItems,
						distinct: options.enrichAiDistinct,
						latencyMs: options.enrichLatencyMs,
						packageBuilt: built.ai,
						log,
					}
				: undefined;
		const enrichPlan = enrichSetup ? planFor(enrichSetup) : undefined;
		const enrich = enrichSetup && enrichPlan ? enrichmentWorkflows(enrichSetup, enrichPlan) : {};
		const aiEnrichPlan = aiEnrichSetup ? planFor(aiEnrichSetup) : undefined;
		const aiEnrich =
			aiEnrichSetup && aiEnrichPlan ? enrichmentWorkflows(aiEnrichSetup, aiEnrichPlan) : {};
		const tokensReady = options.only.has('tokens') && built.ai && built.org;
		const tokenPath = `bench-tokens-${newId()}`;
		const tokenCli = tokensReady
			? tokenCliWorkflow({ ai: creds.aiTokensCli.ref, org: creds.orgTokensCli.ref })
			: undefined;
		const tokenServer = tokensReady
			? tokenServerWorkflow(
					{ ai: creds.aiTokensServer.ref, org: creds.orgTokensServer.ref },
					tokenPath,
				)
			: undefined;
		const sipSecret = String(creds.sip.data.signingSecret);
		const trigger = options.only.has('trigger')
			? triggerWorkflows({
					sipCredential: creds.sip.ref,
					secret: sipSecret,
					packageBuilt: built.sip,
				})
			: undefined;
		// The minimal community trigger is a package of the bench's own, loaded beside ours.
		if (trigger) placeFloorPackage(n8n.userFolder);
		const served = [...(tokenServer ? [tokenServer] : []), ...(trigger?.workflows ?? [])];
		log('importing the workflows');
		await n8n.importWorkflows([
			...Object.values(returnAll),
			...Object.values(orgReturnAll),
			...Object.values(pid),
			...Object.values(enrich),
			...Object.values(aiEnrich),
			...(tokenCli ? [tokenCli] : []),
			...served,
		]);
		for (const workflow of served) await n8n.activate(workflow.id, workflow.name);
		const returnAllIds = idsOf(returnAll);
		const orgReturnAllIds = idsOf(orgReturnAll);
		const pidIds = options.only.has('getByPid') ? idsOf(pid) : undefined;
		const tokenCliId = tokenCli?.id;
		const enrichIds = enrichSetup ? idsOf(enrich) : undefined;
		const aiEnrichIds = aiEnrichSetup ? idsOf(aiEnrich) : undefined;

		if (returnAllSetup && large) {
			await guard('returnAll', async () => {
				results.returnAll = await runPaging(
					{ ...returnAllSetup, token: await fetchAiToken(large) },
					returnAllIds,
					'ai-',
				);
			});
			// 100,000 rows per view hold about 0.5 GB: free them before the other sections.
			await large.close();
			largeClosed = true;
		}
		if (orgSetup && orgSandbox) {
			await guard('orgReturnAll', async () => {
				results.orgReturnAll = await runPaging(
					{ ...orgSetup, token: await fetchOrgToken(orgSandbox) },
					orgReturnAllIds,
					'org-',
				);
			});
			await orgSandbox.close();
			orgClosed = true;
		}
		if (pidIds) {
			await guard('getByPid', async () => {
				results.getByPid = await runGetByPid(pidSetup, pidPlan, pidIds);
			});
		}
		// The AI case first: a thousand requests, where the Organization case's GraphQL node takes minutes. Each
		// table is logged as soon as it is measured.
		if (aiEnrichSetup && aiEnrichPlan && aiEnrichIds) {
			await guard('enrichment (ai)', async () => {
				results.aiEnrichment = await runEnrichment(aiEnrichSetup, aiEnrichPlan, aiEnrichIds);
				log(`\n${enrichmentSection(results.aiEnrichment)}`);
			});
		}
		if (enrichSetup && enrichPlan && enrichIds) {
			await guard('enrichment', async () => {
				results.enrichment = await runEnrichment(enrichSetup, enrichPlan, enrichIds);
				log(`\n${enrichmentSection(results.enrichment)}`);
			});
		}
		if (tokenCliId && options.cliTokenRuns > 0) {
			await guard('tokens (cli)', async () => {
				log(`tokens: ${options.cliTokenRuns} consecutive n8n execute runs`);
				results.tokensCli = await runTokensViaCli(n8n, small, tokenCliId, options.cliTokenRuns);
			});
		}
		if (served.length > 0) {
			log('starting n8n (server) with the webhook workflows active');
			await n8n.start();
			if (tokenServer) {
				await guard('tokens (server)', async () => {
					log(`tokens: ${options.tokenRuns} consecutive webhook-triggered executions`);
					results.tokensServer = await runTokensViaWebhook(
						n8n,
						small,
						tokenPath,
						options.tokenRuns,
					);
				});
			}
			if (trigger) {
				await guard('trigger', async () => {
					const secrets = [sipSecret];
					// Our trigger refuses deliveries until n8n's start + its tolerance (15 s): measured once past that.
					const ourUrls = trigger.ourUrls(n8n);
					if (ourUrls.length > 0) {
						const refusal = await waitPastStartRefusal(ourUrls, secrets[0]);
						log(`trigger: waited ${refusal.waitedMs} ms for the refusal after n8n's start`);
					}
					results.trigger = await runTrigger(
						{
							n8n,
							secrets,
							events: options.events,
							concurrency: options.senders,
							warmupEvents: options.warmup,
							rounds: options.rounds,
							log,
						},
						trigger.targets(n8n).filter((each) => options.triggerContenders.includes(each.kind)),
					);
				});
			}
			await n8n.stop();
		}
		if (exportSandbox) {
			await guard('scheduledExport', async () => {
				const ours = aiCredential('bench export ai', exportSandbox);
				results.scheduledExport = await runScheduledExport({
					n8nVersion: options.n8nVersion,
					env: extraN8nEnv(),
					packageBuilt: built.ai,
					sandbox: exportSandbox,
					ourCredential: { imported: withoutRef(ours), ref: ours.ref },
					headerCredential: (token) => {
						const header = headerCredential('bench export header', token);
						return { imported: withoutRef(header), ref: header.ref };
					},
					fetchToken: () => fetchAiToken(exportSandbox),
					latencyMs: options.exportLatencyMs,
					ourConcurrencies: options.exportConcurrencies,
					floor: options.exportFloor,
					rounds: options.exportRounds,
					warmup: options.exportWarmup,
					log,
				});
			});
		}
	} finally {
		await n8n.dispose();
		await small.close();
		if (large && !largeClosed) await large.close();
		if (orgSandbox && !orgClosed) await orgSandbox.close();
		if (exportSandbox) await exportSandbox.close();
		if (enrichSandbox) await enrichSandbox.close();
	}
	results.totalSeconds = Math.round((Date.now() - started) / 1000);
	results.machine.loadAverageAtEnd = os.loadavg().map((each) => Math.round(each * 100) / 100);
	const markdown = renderResults(results);
	fs.writeFileSync(
		path.join(REPO_ROOT, 'dev', 'bench', 'results.json'),
		`${JSON.stringify(results, null, '\t')}\n`,
	);
	fs.writeFileSync(path.join(REPO_ROOT, 'dev', 'bench', 'results.md'), markdown);
	process.stdout.write(markdown);
	log(`done in ${results.totalSeconds} s; wrote dev/bench/results.json and results.md`);
}

main().catch((error: unknown) => {
	log(`benchmark failed: ${(error as Error).stack ?? String(error)}`);
	process.exitCode = 1;
});
