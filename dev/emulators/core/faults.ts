/**
 * Switchable, deterministic failure injection. A plan is set per target: the AI GraphQL/file server ('ai'),
 * the AI token endpoint ('aiAuth'), the Organization API ('org') and its token endpoint ('orgAuth').
 */

export type FaultTarget = 'ai' | 'org' | 'aiAuth' | 'orgAuth';
export const FAULT_TARGETS: readonly FaultTarget[] = ['ai', 'org', 'aiAuth', 'orgAuth'];

/** `every: N` = every Nth request to the endpoint; omitted = every request. */
export interface EveryRule {
	every?: number;
}

export interface FaultPlan {
	/** 429 with a `Retry-After` header (seconds, default 1). */
	status429?: EveryRule & { retryAfter?: number };
	/** A 5xx answer (default 503) with a small JSON body. */
	status5xx?: EveryRule & { code?: number };
	/** Delay every request by this many milliseconds before answering. */
	slowMs?: number;
	/** Destroy the socket without answering. */
	dropConnection?: EveryRule;
	/** Tokens of this service stop being accepted this many ms after they were issued. */
	expireTokensAfterMs?: number;
	/** Answer 200 with an HTML page (a login page or proxy error in real life). */
	html?: boolean | EveryRule;
	/** Answer 200 with text/plain garbage. */
	nonJson?: boolean | EveryRule;
	/**
	 * Organization API only: query fields resolve to null with `Unable to query SPARQL service` (HTTP 200,
	 * INTERNAL_SERVER_ERROR), on every request (`true`) or on every Nth (a store that hiccups).
	 */
	sparqlDown?: boolean | EveryRule;
	/**
	 * Organization API only: root fields asked for one of these ids or iris fail in their resolver, as Apollo answers
	 * a resolver failure: HTTP 200, that field (or alias) null, an `errors` entry with its path and
	 * INTERNAL_SERVER_ERROR. Other fields of the same request are answered as usual.
	 */
	failKeys?: { keys: string[]; message?: string };
}

/** Faults that replace the whole HTTP answer, in the order they are checked. */
export type ResponseFault = 'dropConnection' | 'status5xx' | 'status429' | 'html' | 'nonJson';
const RESPONSE_FAULTS: readonly ResponseFault[] = [
	'dropConnection',
	'status5xx',
	'status429',
	'html',
	'nonJson',
];

export interface FaultDecision {
	kind: ResponseFault;
	plan: FaultPlan;
}

function everyOf(rule: boolean | EveryRule | undefined): number | undefined {
	if (rule === undefined || rule === false) return undefined;
	if (rule === true) return 1;
	const every = rule.every ?? 1;
	return every >= 1 ? Math.floor(every) : undefined;
}

interface TargetState {
	plan: FaultPlan;
	requestCount: number;
	previousWasFaulted: boolean;
	sparqlRequestCount: number;
	previousSparqlFaulted: boolean;
}

export class FaultControl {
	private readonly states = new Map<FaultTarget, TargetState>();

	set(target: FaultTarget, plan: FaultPlan): void {
		assertTarget(target);
		this.states.set(target, {
			plan: { ...plan },
			requestCount: 0,
			previousWasFaulted: false,
			sparqlRequestCount: 0,
			previousSparqlFaulted: false,
		});
	}

	/** Clears one target, or all of them. */
	clear(target?: FaultTarget): void {
		if (target === undefined) this.states.clear();
		else this.states.delete(target);
	}

	get(target: FaultTarget): FaultPlan {
		return this.states.get(target)?.plan ?? {};
	}

	/**
	 * Counts one request on the target and decides whether it fails. Rules with `every > 1` never fail the
	 * request right after an injected failure, so a single retry always succeeds (rules with every = 1 are
	 * meant to fail permanently and always apply).
	 */
	decide(target: FaultTarget): FaultDecision | undefined {
		const state = this.states.get(target);
		if (!state) return undefined;
		state.requestCount++;
		const decision = this.pickFault(state);
		state.previousWasFaulted = decision !== undefined;
		return decision;
	}

	/**
	 * Counts one executed query on the target and decides whether its SPARQL store fails it. Like `decide`, a rule
	 * with `every > 1` never fails the query right after a failed one.
	 */
	decideSparqlDown(target: FaultTarget): boolean {
		const state = this.states.get(target);
		const every = everyOf(state?.plan.sparqlDown);
		if (!state || every === undefined) return false;
		state.sparqlRequestCount++;
		const down =
			!(every > 1 && state.previousSparqlFaulted) && state.sparqlRequestCount % every === 0;
		state.previousSparqlFaulted = down;
		return down;
	}

	private pickFault(state: TargetState): FaultDecision | undefined {
		for (const kind of RESPONSE_FAULTS) {
			const every = everyOf(state.plan[kind]);
			if (every === undefined) continue;
			if (every > 1 && state.previousWasFaulted) continue;
			if (state.requestCount % every === 0) return { kind, plan: state.plan };
		}
		return undefined;
	}
}

function assertTarget(target: string): asserts target is FaultTarget {
	if (!FAULT_TARGETS.includes(target as FaultTarget)) {
		throw new Error(
			`Unknown fault target "${target}" (expected one of ${FAULT_TARGETS.join(', ')})`,
		);
	}
}

export function isFaultTarget(target: string): target is FaultTarget {
	return FAULT_TARGETS.includes(target as FaultTarget);
}
