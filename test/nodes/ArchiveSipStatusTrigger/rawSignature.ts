import { createHmac } from 'node:crypto';

/**
 * A Standard Webhooks `v1,` signature computed by hand, over exactly `<id>.<timestamp>.` (UTF-8) and the body bytes.
 * Only for what the `standardwebhooks` library cannot sign: it signs text (a body that is not valid UTF-8 becomes
 * other bytes) and a timestamp taken as a Date (so only whole seconds, never other timestamp text). Everything else is
 * signed with the library (dev/emulators/webhook/fixtures.ts `sign`); each use here says why it cannot be.
 */
export function rawSignature(
	secret: string,
	id: string,
	timestamp: string,
	body: string | Buffer,
): string {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}
