import { parseEventTime } from '../../../nodes/ArchiveSipStatusTrigger/event';
import { RateLimiter } from '../../../nodes/ArchiveSipStatusTrigger/rateLimit';
import {
	InMemoryReplayStore,
	REPLAY_WINDOW_MS,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/replayStore';
import {
	globMatches,
	splitPatterns,
	typeMatches,
} from '../../../nodes/ArchiveSipStatusTrigger/typeFilter';

describe('parseEventTime', () => {
	it.each([
		['2025-09-03T20:26:10.344522Z', '2025-09-03T20:26:10.344522Z'],
		['2025-09-03T20:26:10Z', '2025-09-03T20:26:10Z'],
		['2025-09-03t20:26:10z', '2025-09-03T20:26:10Z'],
		['2024-02-29T00:00:00+01:00', '2024-02-28T23:00:00Z'],
		['2025-09-03T20:26:10.344522+0000', '2025-09-03T20:26:10.344522Z'],
		['2025-09-03T22:26:10+0200', '2025-09-03T20:26:10Z'],
		['2025-09-03T15:26:10-05', '2025-09-03T20:26:10Z'],
		['2025-09-03T20:26:10', '2025-09-03T20:26:10Z'],
		['2025-09-03T20:26:10.5', '2025-09-03T20:26:10.5Z'],
		['2025-09-03 20:26:10+00:00', '2025-09-03T20:26:10Z'],
		['2025-09-03T20:26Z', '2025-09-03T20:26:00Z'],
	])('reads %s as %s', (value, expected) => expect(parseEventTime(value)).toBe(expected));

	it.each([
		['a date only', '2025-09-03'],
		['an impossible date', '2025-02-29T00:00:00Z'],
		['month 13', '2025-13-01T00:00:00Z'],
		['hour 24', '2025-09-03T24:00:00Z'],
		['an empty fraction', '2025-09-03T20:26:10.Z'],
		['a number', 1756931170],
		['null', null],
		['text', 'yesterday'],
	])('gives null for %s', (_label, value) => expect(parseEventTime(value)).toBeNull());
});

describe('type filter', () => {
	it('matches glob-like patterns', () => {
		const patterns = splitPatterns('*.sip.*');
		expect(typeMatches('meemoo.sip.archived', patterns)).toBe(true);
		expect(typeMatches('service.sip.archived', patterns)).toBe(true);
		expect(typeMatches('sip.archived', patterns)).toBe(false);
		expect(typeMatches('service.sipx.archived', patterns)).toBe(false);
	});

	it('treats regular-expression characters literally', () => {
		expect(typeMatches('a+b', splitPatterns('a+b'))).toBe(true);
		expect(typeMatches('aab', splitPatterns('a+b'))).toBe(false);
	});
});

describe('globMatches (no regular expression)', () => {
	it.each([
		['*', '', true],
		['*', 'anything', true],
		['a*', 'a', true],
		['*a', 'ba', true],
		['*a', 'ab', false],
		['a*a', 'a', false],
		['a*a', 'aa', true],
		['*.sip.*', 'x.sip.y', true],
		['*.sip.*', '.sip.', true],
		['*.sip.*', 'x.sip', false],
		['a**b', 'ab', true],
		['*ab*ab*', 'abab', true],
		['*ab*ab*', 'aba', false],
		['*aab', 'aaab', true],
		['x*y*z', 'xzyz', true],
		['x*y*z', 'xzzy', false],
		['*a*a*a*a*b', `${'a'.repeat(199)}b`, true],
		['*a*a*a*a*b', 'a'.repeat(200), false],
		['exact', 'exact', true],
		['exact', 'exactly', false],
	])('%p against %p is %p', (pattern, text, expected) => {
		expect(globMatches(pattern, text)).toBe(expected);
	});

	it('agrees with a brute-force matcher on every short pattern and text over {a, b}', () => {
		const words = (length: number, alphabet: string[]): string[] =>
			length === 0
				? ['']
				: words(length - 1, alphabet).flatMap((word) => alphabet.map((letter) => word + letter));
		const bruteForce = (pattern: string, text: string): boolean => {
			if (pattern === '') return text === '';
			if (pattern[0] === '*')
				return [...Array(text.length + 1).keys()].some((skip) =>
					bruteForce(pattern.slice(1), text.slice(skip)),
				);
			return text[0] === pattern[0] && bruteForce(pattern.slice(1), text.slice(1));
		};
		const patterns = [0, 1, 2, 3, 4].flatMap((length) => words(length, ['a', 'b', '*']));
		const texts = [0, 1, 2, 3, 4, 5].flatMap((length) => words(length, ['a', 'b']));
		for (const pattern of patterns) {
			for (const text of texts)
				expect([pattern, text, globMatches(pattern, text)]).toEqual([
					pattern,
					text,
					bruteForce(pattern, text),
				]);
		}
	});
});

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
