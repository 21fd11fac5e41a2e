import { sleepWithAbort } from 'n8n-workflow';

import { DEFAULT_MAX_RETRIES } from '../n8n/limits';

export interface RetryPolicy {
	/** Retries after the first attempt. */
	maxRetries: number;
	/** First backoff; it doubles with every retry (with jitter). */
	baseDelayMs: number;
	/** Upper bound for one wait. A server asking for longer (Retry-After) is not waited for at all. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxRetries: DEFAULT_MAX_RETRIES,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/** What one attempt gave: a value, or a failure that may be worth another attempt. */
type AttemptOutcome<TValue, TFailure> =
	| { value: TValue }
	| { failure: TFailure; retryable: boolean; retryAfterMs?: number };

/** Why the retries ended without a value. */
type GiveUpReason = 'notRetryable' | 'exhausted' | 'aborted' | 'retryAfterTooLong';

export interface GaveUp<TFailure> {
	failure: TFailure;
	reason: GiveUpReason;
	/** Retries made before giving up. */
	retries: number;
	/** For `retryAfterTooLong`: how long the server asked to wait. */
	retryAfterMs?: number;
}

/**
 * Runs `attempt` until it gives a value, fails in a way not worth retrying, runs out of retries, the signal aborts
 * (execution cancelled, page no longer needed), or the server asks to wait longer than the policy allows (the caller
 * fails fast and says when to try again). The server's Retry-After is a lower bound on the wait, never a way around
 * the backoff: `Retry-After: 0` or a past date still waits the exponential backoff.
 */
export async function withRetries<TValue, TFailure>(
	attempt: () => Promise<AttemptOutcome<TValue, TFailure>>,
	policy: RetryPolicy,
	options: { signal?: AbortSignal; onRetry?: () => void } = {},
): Promise<{ value: TValue } | GaveUp<TFailure>> {
	for (let retries = 0; ; retries++) {
		const outcome = await attempt();
		if ('value' in outcome) return outcome;
		const { failure } = outcome;
		if (options.signal?.aborted) return { failure, reason: 'aborted', retries };
		if (!outcome.retryable) return { failure, reason: 'notRetryable', retries };
		if (retries >= policy.maxRetries) return { failure, reason: 'exhausted', retries };
		if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxDelayMs) {
			return { failure, reason: 'retryAfterTooLong', retries, retryAfterMs: outcome.retryAfterMs };
		}
		options.onRetry?.();
		// Aborted, the sleep ends early, and the check below stops.
		const delay = retryDelayMs(policy, retries, outcome.retryAfterMs);
		await sleepWithAbort(delay, options.signal).catch(() => undefined);
		if (options.signal?.aborted) return { failure, reason: 'aborted', retries };
	}
}

/** Exponential backoff with jitter, at least what the server asked for, at most the policy's cap. */
export function retryDelayMs(policy: RetryPolicy, retries: number, retryAfterMs?: number): number {
	const exponential = policy.baseDelayMs * 2 ** retries;
	// Half fixed, half random: concurrent requests that failed together do not retry in lockstep.
	const backoff = exponential / 2 + Math.random() * (exponential / 2);
	return Math.min(Math.max(backoff, retryAfterMs ?? 0), policy.maxDelayMs);
}

/** Retry-After is either delta-seconds or an HTTP date; a past date is 0. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** "Try again after …" for a server that asked to wait longer than the node waits. */
export function retryLaterHint(retryAfterMs: number, now = Date.now()): string {
	const seconds = Math.ceil(retryAfterMs / 1000);
	return `the server asks to wait ${seconds} s before retrying, longer than the node waits; try again after ${new Date(now + retryAfterMs).toISOString()}`;
}
