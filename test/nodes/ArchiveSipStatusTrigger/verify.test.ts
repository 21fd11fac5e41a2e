import {
	checkTimestamp,
	computeSignature,
	readWebhookHeaders,
	v1Signatures,
	verifyDelivery,
} from '../../../nodes/ArchiveSipStatusTrigger/verify/signature';
import { parseSigningSecret } from '../../../nodes/ArchiveSipStatusTrigger/verify/secrets';
import { KNOWN_ANSWER_VECTORS } from '../../../dev/emulators/webhook/fixtures';

function keyOf(secret: string): Buffer {
	const parsed = parseSigningSecret(secret, 'secret');
	if (!parsed.ok) throw new Error(parsed.reason);
	return parsed.value.key;
}

describe('known-answer vectors', () => {
	it.each(KNOWN_ANSWER_VECTORS.map((vector) => [vector.id, vector] as const))(
		'%s',
		(_id, vector) => {
			const signature = computeSignature(
				keyOf(vector.secret),
				vector.id,
				String(vector.timestamp),
				Buffer.from(vector.body),
			);
			expect(`v1,${signature.toString('base64')}`).toBe(vector.signature);

			const headers = {
				'webhook-id': vector.id,
				'webhook-timestamp': String(vector.timestamp),
				'webhook-signature': vector.signature,
			};
			const options = {
				keys: [keyOf(vector.secret)],
				nowMs: vector.timestamp * 1000,
				toleranceSeconds: 300,
			};
			expect(verifyDelivery(headers, Buffer.from(vector.body), options).ok).toBe(true);
			// Re-serialized JSON is different bytes and must not verify.
			const reserialized = Buffer.from(JSON.stringify(JSON.parse(vector.body), null, 1));
			expect(verifyDelivery(headers, reserialized, options)).toEqual({
				ok: false,
				reason: 'no valid webhook signature',
				signatureOnly: true,
			});
		},
	);
});

describe('checkTimestamp', () => {
	const now = 1_700_000_000_000;
	it('accepts digits only within the tolerance', () => {
		expect(checkTimestamp('1700000000', now, 300)).toEqual({ ok: true, value: 1_700_000_000 });
		expect(checkTimestamp('1699999700', now, 300).ok).toBe(true);
		expect(checkTimestamp('1699999699', now, 300)).toEqual({
			ok: false,
			reason: 'webhook-timestamp is too old',
		});
		expect(checkTimestamp('1700000301', now, 300)).toEqual({
			ok: false,
			reason: 'webhook-timestamp is too far in the future',
		});
	});

	it.each(['', '123abc', '1.5', '-5', '+1700000000', '0x10', '1e9', '1700000000000000'])(
		'refuses %p',
		(value) => {
			expect(checkTimestamp(value, now, 300)).toEqual({
				ok: false,
				reason: 'webhook-timestamp must be integer seconds since the epoch',
			});
		},
	);
});

describe('readWebhookHeaders', () => {
	const base = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' };

	it('treats comma-joined duplicates by their values', () => {
		expect(readWebhookHeaders({ ...base, 'webhook-id': 'msg_1, msg_1' }).ok).toBe(true);
		expect(readWebhookHeaders({ ...base, 'webhook-id': 'msg_1, msg_2' }).ok).toBe(false);
		expect(readWebhookHeaders({ ...base, 'webhook-timestamp': ['1', '2'] }).ok).toBe(false);
	});

	it('joins repeated signature headers into one list', () => {
		const read = readWebhookHeaders({ ...base, 'webhook-signature': ['v1,a', 'v1,b'] });
		expect(read.ok && read.value.signatures).toEqual(['v1,a', 'v1,b']);
	});

	it('reports an empty header as missing', () => {
		expect(readWebhookHeaders({ ...base, 'webhook-id': ' ' })).toEqual({
			ok: false,
			reason: 'missing webhook-id header',
		});
	});
});

describe('v1Signatures', () => {
	const sig = Buffer.alloc(32, 7).toString('base64');
	it('keeps only well-formed 32-byte v1 entries', () => {
		const header = `v1,${sig} v1a,${sig} v2,${sig} v1,${Buffer.alloc(16).toString('base64')} v1,** v1,${sig},`;
		expect(v1Signatures(header.split(' '))).toEqual([Buffer.alloc(32, 7), Buffer.alloc(32, 7)]);
	});
});

describe('signature header parsing is linear and bounded', () => {
	const base = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1' };

	it('refuses a header over 4 KiB or with more than 10 entries before splitting it', () => {
		expect(readWebhookHeaders({ ...base, 'webhook-signature': ','.repeat(4097) })).toEqual({
			ok: false,
			reason: 'webhook-signature header is longer than 4096 bytes',
		});
		expect(readWebhookHeaders({ ...base, 'webhook-signature': 'v1,a '.repeat(11) })).toEqual({
			ok: false,
			reason: 'webhook-signature header has more than 10 entries',
		});
		expect(readWebhookHeaders({ ...base, 'webhook-signature': 'v1,a '.repeat(10) }).ok).toBe(true);
	});

	it('finds no signature in an entry of commas only', () => {
		expect(v1Signatures([','.repeat(4000)])).toEqual([]);
		expect(
			v1Signatures([`v1,${Buffer.alloc(32, 1).toString('base64')}${','.repeat(4000)}`]),
		).toEqual([Buffer.alloc(32, 1)]);
	});
});
