import { MAX_TRIGGER_SCOPES } from '../../../nodes/shared/n8n/limits';
import { rateLimiterCount, rateLimiterFor } from '../../../nodes/ArchiveSipStatusTrigger/rateLimit';
import {
	rememberSigningKeys,
	signingKeyCacheSizes,
	takeForcedReread,
	secretsChanged,
} from '../../../nodes/ArchiveSipStatusTrigger/verify/signingKeyCache';

/** The trigger's process-wide maps hold a bounded number of entries, dropping the least recently used. */

describe('rate limiters', () => {
	it('keep at most MAX_TRIGGER_SCOPES, dropping the least recently used', () => {
		const first = rateLimiterFor('bounded-rl-0', 5);
		const kept = rateLimiterFor('bounded-rl-1', 5);
		for (let index = 2; index < MAX_TRIGGER_SCOPES + 10; index++) {
			rateLimiterFor(`bounded-rl-${index}`, 5);
			if (index % 100 === 0) expect(rateLimiterFor('bounded-rl-1', 5)).toBe(kept);
		}
		expect(rateLimiterCount()).toBe(MAX_TRIGGER_SCOPES);
		expect(rateLimiterFor('bounded-rl-1', 5)).toBe(kept);
		expect(rateLimiterFor('bounded-rl-0', 5)).not.toBe(first);
	});
});

describe('signing key cache', () => {
	it('holds at most 1000 credentials in each of its maps', () => {
		const keys = { keys: [Buffer.alloc(32)], errors: [], warnings: [] };
		for (let index = 0; index < 1010; index++) {
			rememberSigningKeys(`bounded-cred-${index}`, keys, 0);
			takeForcedReread(`bounded-cred-${index}`, 0);
			secretsChanged(`bounded-cred-${index}`, 'fingerprint');
		}
		expect(signingKeyCacheSizes()).toEqual({
			keys: 1000,
			forcedRereads: 1000,
			secretFingerprints: 1000,
		});
	});
});
