import { RateLimiter } from '../../../nodes/ArchiveSipStatusTrigger/rateLimit';

describe('RateLimiter', () => {
	it('allows a burst of the limit, then refills over the minute', () => {
		let now = 0;
		const limiter = new RateLimiter(6, () => now);
		for (let index = 0; index < 6; index += 1) expect(limiter.take().allowed).toBe(true);
		expect(limiter.take()).toEqual({ allowed: false, retryAfterSeconds: 10 });
		now = 10_000;
		expect(limiter.take().allowed).toBe(true);
		expect(limiter.take().allowed).toBe(false);
	});
});
