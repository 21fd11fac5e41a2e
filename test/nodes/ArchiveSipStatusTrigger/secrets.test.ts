import { randomBytes } from 'node:crypto';

import { ArchiveSipStatusTrigger } from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import {
	parseSigningKeys,
	parseSigningSecret,
	splitAdditionalSecrets,
} from '../../../nodes/ArchiveSipStatusTrigger/verify/secrets';
import type { ICredentialTestFunctions, ICredentialsDecrypted } from 'n8n-workflow';
import { KNOWN_ANSWER_VECTORS } from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';

describe('parseSigningSecret', () => {
	it('decodes whsec_ + base64 to the key bytes', () => {
		const key = randomBytes(32);
		const parsed = parseSigningSecret(`whsec_${key.toString('base64')}`, 'Signing Secret');
		expect(parsed).toEqual({ ok: true, value: { key } });
	});

	it('decodes a secret without the whsec_ prefix as base64, as the Standard Webhooks libraries do', () => {
		const parsed = parseSigningSecret('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'Signing Secret');
		expect(parsed).toEqual({
			ok: true,
			value: { key: Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64') },
		});
	});

	it('holds a secret without prefix to the 16-byte minimum too', () => {
		const parsed = parseSigningSecret(randomBytes(15).toString('base64'), 'Signing Secret');
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.reason).toContain('fewer than the minimum of 16');
	});

	it('ignores whitespace around a pasted secret', () => {
		const key = randomBytes(24);
		const parsed = parseSigningSecret(`  whsec_${key.toString('base64')}\n`, 'Signing Secret');
		expect(parsed.ok && parsed.value.key.equals(key)).toBe(true);
	});

	it.each([
		['an empty value', '', 'Signing Secret is empty'],
		['a non-string', 42, 'Signing Secret is empty'],
		[
			'a signature',
			'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
			'looks like a signature (starts with "v1,")',
		],
		['spaces inside', 'whsec_abcd efgh', 'contains spaces'],
		[
			'plain text without prefix',
			'my-plain-secret',
			'is not valid base64 (a signing secret is "whsec_" followed by base64, or the base64 alone)',
		],
		['non-base64 text', 'whsec_not*base64!', 'is not valid base64'],
		['an impossible base64 length', 'whsec_abcde', 'is not valid base64'],
		['only the prefix', 'whsec_', 'is not valid base64'],
	])('refuses %s with a clear message', (_label, value, message) => {
		const parsed = parseSigningSecret(value, 'Signing Secret');
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.reason).toContain(message);
	});

	it('accepts a key under 24 bytes with a warning (vector 4 uses 18 bytes)', () => {
		const parsed = parseSigningSecret(KNOWN_ANSWER_VECTORS[3].secret, 'Signing Secret');
		expect(parsed.ok).toBe(true);
		if (parsed.ok) {
			expect(parsed.value.key).toHaveLength(18);
			expect(parsed.value.warning).toContain('18 bytes');
		}
	});

	it.each([1, 8, 15])('refuses a key of %i bytes (guessable from one signature)', (bytes) => {
		const parsed = parseSigningSecret(
			`whsec_${randomBytes(bytes).toString('base64')}`,
			'Signing Secret',
		);
		expect(parsed).toEqual({
			ok: false,
			reason: `Signing Secret decodes to ${bytes} bytes, fewer than the minimum of 16 (Standard Webhooks secrets hold 24 to 64 random bytes)`,
		});
	});

	it('accepts a 16-byte key with a warning', () => {
		const parsed = parseSigningSecret(
			`whsec_${randomBytes(16).toString('base64')}`,
			'Signing Secret',
		);
		expect(parsed.ok && parsed.value.key.length).toBe(16);
		expect(parsed.ok && parsed.value.warning).toContain('16 bytes');
	});

	it('never repeats the value in a message', () => {
		const values = [
			'v1,c2VjcmV0c2VjcmV0',
			'whsec_c2Vj cmV0',
			'c2VjcmV0c2VjcmV0',
			'whsec_c2VjcmV0*',
		];
		for (const value of values) {
			const parsed = parseSigningSecret(value, 'X');
			expect(parsed.ok).toBe(false);
			if (!parsed.ok) expect(parsed.reason).not.toContain('c2Vj');
		}
	});
});

describe('parseSigningKeys', () => {
	it('collects the main secret and one secret per line', () => {
		const [main, second, third] = [generateSecret(), generateSecret(), generateSecret()];
		const parsed = parseSigningKeys(main, `${second}\r\n\n ${third} `);
		expect(parsed.errors).toEqual([]);
		expect(parsed.keys.map((key) => `whsec_${key.toString('base64')}`)).toEqual([
			main,
			second,
			third,
		]);
	});

	it('numbers the additional secret that is wrong and keeps the good ones', () => {
		const parsed = parseSigningKeys(generateSecret(), `${generateSecret()}\nv1,abc`);
		expect(parsed.keys).toHaveLength(2);
		expect(parsed.errors).toEqual([
			expect.stringContaining('Additional Secret 2 looks like a signature'),
		]);
	});

	it('splits the rotation field on lines and spaces only', () => {
		expect(splitAdditionalSecrets('a\nb c\r\n')).toEqual(['a', 'b', 'c']);
		expect(splitAdditionalSecrets(undefined)).toEqual([]);
	});
});

describe('credential test archiveSipWebhookSecretTest', () => {
	const node = new ArchiveSipStatusTrigger();
	const runTest = async (data: ICredentialsDecrypted['data']) =>
		await node.methods.credentialTest.archiveSipWebhookSecretTest.call(
			{} as ICredentialTestFunctions,
			{ id: '1', name: 'sip', type: 'archiveSipWebhookApi', data },
		);

	it('reports OK for valid secrets', async () => {
		expect(
			await runTest({ signingSecret: generateSecret(), additionalSecrets: generateSecret() }),
		).toEqual({
			status: 'OK',
			message: '2 signing secrets valid',
		});
	});

	it('reports OK with a warning for a short key', async () => {
		const result = await runTest({ signingSecret: KNOWN_ANSWER_VECTORS[3].secret });
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^1 signing secret valid\. Warning: Signing Secret decodes to 18 bytes/,
		);
	});

	it('reports every invalid entry as an error without echoing it', async () => {
		const result = await runTest({
			signingSecret: 'v1,c2VjcmV0c2VjcmV0',
			additionalSecrets: 'plainc2VjcmV0',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toContain('Signing Secret looks like a signature');
		expect(result.message).toContain('Additional Secret 1 is not valid base64 (a signing secret');
		expect(result.message).not.toContain('c2VjcmV0');
	});

	it('fails for a key under 16 bytes, also when another secret is fine', async () => {
		const result = await runTest({
			signingSecret: generateSecret(),
			additionalSecrets: 'whsec_QQ==',
		});
		expect(result).toEqual({
			status: 'Error',
			message:
				'Additional Secret 1 decodes to 1 bytes, fewer than the minimum of 16 (Standard Webhooks secrets hold 24 to 64 random bytes)',
		});
	});

	it('reports a missing secret', async () => {
		expect(await runTest(undefined)).toEqual({
			status: 'Error',
			message: 'Signing Secret is empty',
		});
	});
});
