import {
	AcceptedIdRecord,
	recordKey,
	REPLAY_WINDOW_MS,
	secretFingerprint,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';

describe('the replay record (AcceptedIdRecord)', () => {
	it('holds an id for the replay window, then lets it be accepted again', () => {
		let now = 1_000;
		const record = new AcceptedIdRecord(10, REPLAY_WINDOW_MS, () => now);
		expect(record.add('a')).toBe('added');
		expect(record.has('a')).toBe(true);
		expect(record.add('a')).toBe('present');
		now += REPLAY_WINDOW_MS - 1;
		expect(record.has('a')).toBe(true);
		now += 1;
		expect(record.has('a')).toBe(false);
		expect(record.add('a')).toBe('added');
	});

	it('by default, takes an id for a replay for 72 hours after it was recorded, not longer', () => {
		const HOURS_72_MS = 72 * 60 * 60 * 1000;
		const recordedAt = 1_758_548_009_000;
		let now = recordedAt;
		// Capacity and retention as the process's own record has them: only the clock is injected.
		const record = new AcceptedIdRecord(undefined, undefined, () => now);
		expect(record.add('a')).toBe('added');

		now = recordedAt + HOURS_72_MS - 1;
		expect(record.has('a')).toBe(true);
		expect(record.add('a')).toBe('present');

		now = recordedAt + HOURS_72_MS + 1;
		expect(record.has('a')).toBe(false);
		expect(record.add('a')).toBe('added');
	});

	it('refuses a new id when full, and never drops a live one to make room', () => {
		let now = 0;
		const record = new AcceptedIdRecord(3, 1_000, () => now);
		for (const id of ['a', 'b', 'c']) expect(record.add(id)).toBe('added');
		expect(record.add('d')).toBe('full');
		expect(record.hasRoomFor(1)).toBe(false);
		for (const id of ['a', 'b', 'c']) expect(record.has(id)).toBe(true);
		expect(record.has('d')).toBe(false);
		// Room comes back as ids expire, oldest first.
		now = 1_000;
		expect(record.add('d')).toBe('added');
		expect(record.size).toBe(1);
	});

	it('frees an expired entry that a clock step back left behind a live one', () => {
		let now = 10_000;
		const record = new AcceptedIdRecord(2, 1_000, () => now);
		record.add('late');
		now = 5_000; // the clock went back: 'early' expires before 'late' but sits after it
		record.add('early');
		now = 7_000;
		expect(record.has('early')).toBe(false);
		expect(record.add('early')).toBe('added');
		expect(record.has('late')).toBe(true);
	});

	it('forgets an id on request, so the sender retry runs', () => {
		const record = new AcceptedIdRecord();
		record.add('a');
		record.delete('a');
		expect(record.has('a')).toBe(false);
	});

	it('starts empty after a reset, at the given time', () => {
		const record = new AcceptedIdRecord(10, 1_000, () => 5_000);
		expect(record.startedAtMs).toBe(5_000);
		record.add('a');
		record.reset(4_000);
		expect(record.has('a')).toBe(false);
		expect(record.startedAtMs).toBe(4_000);
	});

	it('keys an id per secret, at a fixed size whatever the id length', () => {
		const one = secretFingerprint(Buffer.alloc(32, 1));
		const two = secretFingerprint(Buffer.alloc(32, 2));
		expect(recordKey(one, 'msg_1')).toBe(recordKey(one, 'msg_1'));
		expect(recordKey(one, 'msg_1')).not.toBe(recordKey(two, 'msg_1'));
		expect(recordKey(one, 'msg_1')).not.toBe(recordKey(one, 'msg_2'));
		expect(recordKey(one, 'x'.repeat(256))).toHaveLength(recordKey(one, 'm').length);
	});
});
