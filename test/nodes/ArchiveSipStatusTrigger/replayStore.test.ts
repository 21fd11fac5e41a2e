import {
	InMemoryReplayStore,
	REPLAY_WINDOW_MS,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/replayStore';

describe('InMemoryReplayStore', () => {
	it('remembers ids until they expire', async () => {
		let now = 1_000;
		const store = new InMemoryReplayStore(10, () => now);
		expect(await store.remember('a', now + REPLAY_WINDOW_MS)).toBe(true);
		expect(await store.seen('a')).toBe(true);
		expect(await store.remember('a', now + REPLAY_WINDOW_MS)).toBe(false);
		now += REPLAY_WINDOW_MS;
		expect(await store.seen('a')).toBe(false);
		expect(await store.remember('a', now + REPLAY_WINDOW_MS)).toBe(true);
	});

	it('is bounded by count, evicting the oldest first', async () => {
		const store = new InMemoryReplayStore(3, () => 0);
		for (const id of ['a', 'b', 'c', 'd']) await store.remember(id, 1_000);
		expect(store.size).toBe(3);
		expect(await store.seen('a')).toBe(false);
		expect(await store.seen('d')).toBe(true);
	});

	it('drops expired ids when new ones arrive', async () => {
		let now = 0;
		const store = new InMemoryReplayStore(100, () => now);
		await store.remember('old', 10);
		now = 20;
		await store.remember('new', 100);
		expect(store.size).toBe(1);
	});

	it('forgets an id on request', async () => {
		const store = new InMemoryReplayStore();
		await store.remember('a', Date.now() + 1_000);
		await store.forget('a');
		expect(await store.seen('a')).toBe(false);
	});
});
