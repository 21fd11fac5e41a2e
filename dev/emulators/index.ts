/**
 * Local emulators of the three archive services (see README.md). `startSandbox()` starts the AI metadata API and
 * the Organization API on loopback with deterministic data, fault injection and request counters.
 */
import { AiDataset, type RawStorage } from './ai/dataset';
import type { AiListFormat, AiNaming } from './ai/model';
import { AI_GRAPHQL_PATH, AiServer } from './ai/server';
import { Counters } from './core/counters';
import { FaultControl } from './core/faults';
import { ResponseCache } from './core/responseCache';
import { OrgDataset } from './org/dataset';
import { ORG_API_PATH, OrgServer } from './org/server';

export { AiDataset, type AiRecord, type AiRow, type RawStorage } from './ai/dataset';
export type { AiListFormat, AiNaming, CanonicalView } from './ai/model';
export { Counters, type CountersSnapshot, type ServiceCounters } from './core/counters';
export { FaultControl, type FaultPlan, type FaultTarget } from './core/faults';
export { ResponseCache, type ResponseCacheStats } from './core/responseCache';
export { OrgDataset } from './org/dataset';

export const DEMO_CREDENTIALS = {
	ai: { email: 'demo@archive.test', password: 'demo-password' },
	org: { username: 'demo', password: 'demo-password' },
} as const;

export interface SandboxOptions {
	/** Rows per AI view and scale of the organization data; default 1000; works up to 100_000. */
	rows?: number;
	/** PRNG seed, default 42: same seed + rows => byte-identical data. */
	seed?: number;
	/** Default '127.0.0.1'. */
	host?: string;
	/** Default 0 = a random free port. */
	aiPort?: number;
	orgPort?: number;
	/** 'seed' (default): image_tasks/image_matches + extractor_json; 'live': face_image_tasks/face_image_matches + nerengine_json. */
	aiNaming?: AiNaming;
	/** Default true; false = a role without `<view>_aggregate` fields. */
	aiAggregates?: boolean;
	/** 'inline' (default): raw columns hold content; 'paths': object paths, content via presignS3 URLs. */
	aiRawStorage?: RawStorage;
	/** Cap on issued token lifetime in seconds (default: the requested expires_in). */
	tokenTtlSeconds?: number;
	/** 'json' (default): list columns are jsonb arrays; 'literal': Postgres arrays, served as `{a,b}` literals. */
	aiListFormat?: AiListFormat;
	/** Default true; false = a role that may not introspect (`__schema`/`__type` answered as unknown fields). */
	aiIntrospection?: boolean;
	/** Default false; true = rows tied on every order_by column come in a new order on each request. */
	aiUnstableTies?: boolean;
	/**
	 * Default false; true = bench mode: each successful GraphQL answer is rendered once per (query, variables,
	 * operation name) and served as the same bytes afterwards (see core/responseCache.ts), so the emulators cost
	 * little CPU per page and a benchmark measures its client.
	 */
	benchMode?: boolean;
}

export interface Sandbox {
	ai: { authUrl: string; graphqlUrl: string; email: string; password: string; baseUrl: string };
	org: { authUrl: string; apiUrl: string; username: string; password: string; baseUrl: string };
	faults: FaultControl;
	counters: Counters;
	data: { ai: AiDataset; org: OrgDataset };
	/** Resolved options the sandbox runs with. */
	options: Required<Omit<SandboxOptions, 'tokenTtlSeconds'>> & { tokenTtlSeconds?: number };
	/** Makes every issued token of both services invalid at once (tests of re-authentication). */
	revokeTokens(): void;
	/** Bench mode only: the stored answers of each API (hits, misses, render time). */
	responseCaches?: { ai: ResponseCache; org: ResponseCache };
	close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const resolved = {
		rows: options.rows ?? 1000,
		seed: options.seed ?? 42,
		host: options.host ?? '127.0.0.1',
		aiPort: options.aiPort ?? 0,
		orgPort: options.orgPort ?? 0,
		aiNaming: options.aiNaming ?? 'seed',
		aiAggregates: options.aiAggregates ?? true,
		aiRawStorage: options.aiRawStorage ?? 'inline',
		aiListFormat: options.aiListFormat ?? 'json',
		aiIntrospection: options.aiIntrospection ?? true,
		aiUnstableTies: options.aiUnstableTies ?? false,
		benchMode: options.benchMode ?? false,
		tokenTtlSeconds: options.tokenTtlSeconds,
	};
	if (!Number.isInteger(resolved.rows) || resolved.rows < 1)
		throw new Error('rows must be a positive integer');
	const faults = new FaultControl();
	const counters = new Counters();
	const aiData = new AiDataset({
		rows: resolved.rows,
		seed: resolved.seed,
		naming: resolved.aiNaming,
		rawStorage: resolved.aiRawStorage,
		listFormat: resolved.aiListFormat,
		unstableTies: resolved.aiUnstableTies,
	});
	const orgData = new OrgDataset({ rows: resolved.rows, seed: resolved.seed });
	const responseCaches = resolved.benchMode
		? { ai: new ResponseCache(), org: new ResponseCache() }
		: undefined;
	const common = {
		host: resolved.host,
		faults,
		counters,
		tokenTtlSeconds: resolved.tokenTtlSeconds,
	};
	const aiServer = new AiServer({
		...common,
		dataset: aiData,
		aggregates: resolved.aiAggregates,
		introspection: resolved.aiIntrospection,
		port: resolved.aiPort,
		responseCache: responseCaches?.ai,
		...DEMO_CREDENTIALS.ai,
	});
	const orgServer = new OrgServer({
		...common,
		dataset: orgData,
		seed: resolved.seed,
		port: resolved.orgPort,
		responseCache: responseCaches?.org,
		...DEMO_CREDENTIALS.org,
	});
	const aiBase = await aiServer.start();
	let orgBase: string;
	try {
		orgBase = await orgServer.start();
	} catch (error) {
		await aiServer.close();
		throw error;
	}
	return {
		ai: {
			authUrl: `${aiBase}/auth`,
			graphqlUrl: `${aiBase}${AI_GRAPHQL_PATH}`,
			baseUrl: aiBase,
			...DEMO_CREDENTIALS.ai,
		},
		org: {
			authUrl: `${orgBase}/auth`,
			apiUrl: `${orgBase}${ORG_API_PATH}`,
			baseUrl: orgBase,
			...DEMO_CREDENTIALS.org,
		},
		faults,
		counters,
		data: { ai: aiData, org: orgData },
		options: resolved,
		...(responseCaches ? { responseCaches } : {}),
		revokeTokens() {
			aiServer.tokens.revokeAll();
			orgServer.tokens.revokeAll();
		},
		close: async () => {
			await Promise.all([aiServer.close(), orgServer.close()]);
		},
	};
}
