/**
 * Signatures are compared in constant time: every `v1` entry of the header is compared with every key's expected
 * signature through `crypto.timingSafeEqual`, and a match stops nothing, so a delivery that matches on its first entry
 * takes as many comparisons as one that matches nothing. `node:crypto` is wrapped here only (its own file), the real
 * function still does the comparing.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

import { sign } from '../../../dev/emulators/webhook/fixtures';
import { verifyDelivery } from '../../../nodes/ArchiveSipStatusTrigger/verify/signature';

jest.mock('node:crypto', () => {
	const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
	return {
		...actual,
		timingSafeEqual: jest.fn((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) =>
			actual.timingSafeEqual(a, b),
		),
	};
});

const compare = jest.mocked(timingSafeEqual);

const NOW_SECONDS = 1_758_548_009;
const ID = 'msg_constant_time_1';
const BODY = Buffer.from('{"type": "meemoo.sip.archived"}');

/** Signed by the standardwebhooks library (pure JavaScript: it never calls the wrapped `node:crypto`). */
function signatureEntry(key: Buffer): string {
	return sign(`whsec_${key.toString('base64')}`, ID, NOW_SECONDS, BODY);
}

function verify(keys: Buffer[], entries: string[]) {
	return verifyDelivery(
		{
			'webhook-id': ID,
			'webhook-timestamp': String(NOW_SECONDS),
			'webhook-signature': entries.join(' '),
		},
		BODY,
		{ keys, nowMs: NOW_SECONDS * 1000, toleranceSeconds: 300 },
	);
}

describe('signature comparison', () => {
	it('compares every signature entry with every key in constant time, as many times when the first entry matches the first key as when nothing matches', () => {
		const firstKey = randomBytes(32);
		const secondKey = randomBytes(32);
		const keys = [firstKey, secondKey];
		const others = [signatureEntry(randomBytes(32)), signatureEntry(randomBytes(32))];

		compare.mockClear();
		const matched = verify(keys, [signatureEntry(firstKey), ...others]);
		expect(matched).toMatchObject({ ok: true, matchedKeys: [firstKey] });
		expect(compare).toHaveBeenCalledTimes(keys.length * 3);

		compare.mockClear();
		const refused = verify(keys, [signatureEntry(randomBytes(32)), ...others]);
		expect(refused).toEqual({
			ok: false,
			reason: 'no valid webhook signature',
			signatureOnly: true,
		});
		expect(compare).toHaveBeenCalledTimes(keys.length * 3);
	});
});
