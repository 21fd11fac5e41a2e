import { getTouched, setBounded } from '../shared/boundedCache';
import { MAX_TRIGGER_SCOPES } from '../shared/n8n/limits';

/** Optional limit on accepted events: a token bucket of `perMinute` events, refilled continuously over 60 s. */
export class RateLimiter {
	private tokens: number;

	private updatedAt: number;

	constructor(
		readonly perMinute: number,
		private readonly now: () => number = () => Date.now(),
	) {
		this.tokens = perMinute;
		this.updatedAt = now();
	}

	/** Takes one token; when none is left returns the seconds until one will be. */
	take(): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
		const now = this.now();
		const elapsed = Math.max(0, now - this.updatedAt);
		this.tokens = Math.min(this.perMinute, this.tokens + (elapsed * this.perMinute) / 60_000);
		this.updatedAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return { allowed: true };
		}
		const msPerToken = 60_000 / this.perMinute;
		const waitMs = (1 - this.tokens) * msPerToken;
		return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
	}
}

const limiters = new Map<string, RateLimiter>();

/** One limiter per trigger node, least recently used dropped first; a changed limit starts a fresh bucket. */
export function rateLimiterFor(scope: string, perMinute: number): RateLimiter {
	const existing = getTouched(limiters, scope);
	if (existing && existing.perMinute === perMinute) return existing;
	const limiter = new RateLimiter(perMinute);
	setBounded(limiters, scope, limiter, MAX_TRIGGER_SCOPES);
	return limiter;
}

/** Limiters held by this process, for tests. */
export function rateLimiterCount(): number {
	return limiters.size;
}
