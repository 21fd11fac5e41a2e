import { MAX_TRIGGER_SCOPES } from '../../../nodes/shared/n8n/limits';
import { rateLimiterCount, rateLimiterFor } from '../../../nodes/ArchiveSipStatusTrigger/rateLimit';
import {
	InMemoryReplayStore,
	MAX_REPLAY_SCOPES,
	REPLAY_WINDOW_MS,
	replayStoreCount,
	replayStoreFor,
	setReplayStore,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/replayStore';
import {
	LayeredReplayStore,
	pendingRepairSizes,
	SHARED_REPLAY_CAPACITY,
	StaticDataReplayStore,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/sharedReplayStore';
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

describe('process-local replay stores', () => {
	it('keep at most MAX_REPLAY_SCOPES, and never drop a plugged-in store', () => {
		const plugged = new InMemoryReplayStore();
		setReplayStore('bounded-plugged', plugged);
		const first = replayStoreFor('bounded-rs-0');
		for (let index = 1; index < MAX_REPLAY_SCOPES + 10; index++)
			replayStoreFor(`bounded-rs-${index}`);
		expect(replayStoreCount()).toBe(MAX_REPLAY_SCOPES);
		expect(replayStoreFor('bounded-plugged')).toBe(plugged);
		expect(replayStoreFor('bounded-rs-0')).not.toBe(first);
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

describe('pending repairs of the shared replay record', () => {
	it('keep at most MAX_TRIGGER_SCOPES scopes and SHARED_REPLAY_CAPACITY ids per scope', async () => {
		const now = () => 1_000_000;
		for (let index = 0; index < MAX_TRIGGER_SCOPES + 10; index++) {
			const scope = `bounded-pending-${index}`;
			await new LayeredReplayStore(
				new InMemoryReplayStore(),
				new StaticDataReplayStore({}, now),
				scope,
				now,
			).remember('msg', now() + REPLAY_WINDOW_MS);
		}
		expect(pendingRepairSizes().scopes).toBe(MAX_TRIGGER_SCOPES);

		const store = new LayeredReplayStore(
			new InMemoryReplayStore(100_000, now),
			new StaticDataReplayStore({}, now),
			'bounded-pending-many',
			now,
		);
		const before = pendingRepairSizes().ids;
		for (let index = 0; index < SHARED_REPLAY_CAPACITY + 10; index++)
			await store.remember(`msg_${index}`, now() + REPLAY_WINDOW_MS);
		expect(pendingRepairSizes().ids - before).toBe(SHARED_REPLAY_CAPACITY);
	});
});
