import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import {
	FORCED_REREAD_INTERVAL_MS,
	SIGNING_KEY_REUSE_MS,
} from '../../../nodes/ArchiveSipStatusTrigger/verify/signingKeyCache';
import {
	freezeClock,
	postRaw,
	recordedLogs,
	type WebhookHarnessOptions,
} from '../../../dev/harness/webhook';
import { signedHeaders, sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';
import {
	NOW_SECONDS,
	SECRET,
	deliver,
	errorOf,
	nextId,
	startTrigger,
	useTriggerHarness,
} from './triggerSetup';

useTriggerHarness();

describe('signing keys: read once, reused for a few seconds by production deliveries', () => {
	/** A trigger whose credential the test edits between deliveries, as a user would in n8n (the harness reads it each time). */
	async function startEditableTrigger(mode: WebhookHarnessOptions['mode'] = 'webhook') {
		const credential: ICredentialDataDecryptedObject = { signingSecret: SECRET };
		return { harness: await startTrigger({ credentials: credential, mode }), credential };
	}

	it('reads the credential once for a burst of deliveries, and again once the keys are older than the window', async () => {
		const { harness } = await startEditableTrigger();
		const statuses = [];
		for (let index = 0; index < 5; index++)
			statuses.push((await deliver(harness, sipEventBody())).status);
		expect(statuses).toEqual([204, 204, 204, 204, 204]);
		expect(harness.credentialReads()).toBe(1);
		freezeClock(NOW_SECONDS * 1000 + SIGNING_KEY_REUSE_MS);
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(harness.credentialReads()).toBe(2);
		expect(harness.runs()).toHaveLength(6);
	});

	it('verifies an event signed with a secret added to the credential at once (rotation)', async () => {
		const { harness, credential } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		const rotated = generateSecret();
		credential.signingSecret = rotated;
		credential.additionalSecrets = SECRET;
		expect((await deliver(harness, sipEventBody(), { secret: rotated })).status).toBe(204);
		expect((await deliver(harness, sipEventBody(), { secret: SECRET })).status).toBe(204);
		expect(harness.credentialReads()).toBe(2);
	});

	it('stops verifying a secret removed from the credential once the window has passed', async () => {
		const { harness, credential } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		credential.signingSecret = generateSecret();
		// Within the window the keys read a moment ago still hold the removed secret (the documented delay) ...
		freezeClock(NOW_SECONDS * 1000 + SIGNING_KEY_REUSE_MS - 1);
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		// ... and from then on the credential as it is now decides.
		freezeClock(NOW_SECONDS * 1000 + SIGNING_KEY_REUSE_MS);
		const refused = await deliver(harness, sipEventBody());
		expect(refused.status).toBe(401);
		expect(errorOf(refused)).toMatch(/signature/i);
		expect(harness.runs()).toHaveLength(2);
	});

	it('reads the credential again before refusing a signature, so forged deliveries cost what they did', async () => {
		const { harness } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect((await deliver(harness, sipEventBody(), { secret: generateSecret() })).status).toBe(401);
		expect(harness.credentialReads()).toBe(2);
	});

	it('does not read the credential again for a 401 without webhook headers, with a stale timestamp or a malformed header', async () => {
		const { harness } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		const body = sipEventBody();
		expect((await postRaw(harness.url, body, { 'content-type': 'application/json' })).status).toBe(
			401,
		);
		expect(
			(await deliver(harness, body, { secret: generateSecret(), timestamp: NOW_SECONDS - 3600 }))
				.status,
		).toBe(401);
		const overlong = {
			...signedHeaders(generateSecret(), nextId(), NOW_SECONDS, body),
			'webhook-signature': 'v1,x '.repeat(11),
		};
		expect((await postRaw(harness.url, body, overlong)).status).toBe(401);
		expect(harness.credentialReads()).toBe(1);
	});

	it('reads the credential again at most once per few seconds for a stream of fresh forgeries', async () => {
		const { harness } = await startEditableTrigger();
		expect((await deliver(harness, sipEventBody())).status).toBe(204);
		for (let index = 0; index < 5; index++) {
			expect((await deliver(harness, sipEventBody(), { secret: generateSecret() })).status).toBe(
				401,
			);
		}
		expect(harness.credentialReads()).toBe(2);
		freezeClock(NOW_SECONDS * 1000 + FORCED_REREAD_INTERVAL_MS);
		expect(
			(
				await deliver(harness, sipEventBody(), {
					secret: generateSecret(),
					timestamp: NOW_SECONDS + 5,
				})
			).status,
		).toBe(401);
		expect(harness.credentialReads()).toBe(3);
	});

	it('logs the unusable-secret warning once per change of the secrets, not on every read', async () => {
		const credential: ICredentialDataDecryptedObject = {
			signingSecret: SECRET,
			additionalSecrets: 'not-a-secret',
		};
		// Test-URL deliveries read the credential every time.
		const harness = await startTrigger({ credentials: credential, mode: 'manual' });
		const logsBefore = recordedLogs.length;
		const warnings = () => recordedLogs.slice(logsBefore).filter((entry) => entry.level === 'warn');
		for (let index = 0; index < 3; index++)
			expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(harness.credentialReads()).toBe(3);
		expect(warnings()).toHaveLength(1);
		expect(warnings()[0].message).toContain('Additional Secret 1 is not valid base64');
		credential.additionalSecrets = 'still-not-a-secret';
		for (let index = 0; index < 2; index++)
			expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(warnings()).toHaveLength(2);
	});

	it('reads the credential for every test-URL delivery, so edits show at once in the editor', async () => {
		const { harness } = await startEditableTrigger('manual');
		for (let index = 0; index < 3; index++)
			expect((await deliver(harness, sipEventBody())).status).toBe(204);
		expect(harness.credentialReads()).toBe(3);
	});
});
