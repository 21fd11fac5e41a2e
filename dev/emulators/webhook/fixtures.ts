import { isUtf8 } from 'node:buffer';

import { Webhook } from 'standardwebhooks';

/**
 * Reference signing of SIP status events with the `standardwebhooks` library, independent of the node's own code, with
 * the known-answer vectors: what the tests, the benchmarks and the sender emulator (`sender.ts`) share. `sign` is the
 * one signing entry point of dev/ and test/; only bytes the library cannot sign are signed by hand
 * (test/nodes/ArchiveSipStatusTrigger/rawSignature.ts).
 */

export const NODE_TYPE_NAME = 'n8n-nodes-archive-services.archiveSipStatusTrigger';

export const CREDENTIAL_TYPE = 'archiveSipWebhookApi';

/**
 * `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` by the library (`whsec_` stripped, the rest base64-decoded).
 * The library signs text: a Buffer body is decoded as UTF-8 first, so one that is not valid UTF-8 is refused here
 * rather than signed as other bytes.
 */
export function sign(
	secret: string,
	id: string,
	timestampSeconds: number,
	body: string | Buffer,
): string {
	if (typeof body !== 'string' && !isUtf8(body)) {
		throw new Error('standardwebhooks signs text: this body is not valid UTF-8, sign it by hand');
	}
	return new Webhook(secret).sign(id, new Date(timestampSeconds * 1000), body);
}

export function signedHeaders(
	secret: string,
	id: string,
	timestampSeconds: number,
	body: string,
): Record<string, string> {
	return {
		'content-type': 'application/json',
		'webhook-id': id,
		'webhook-timestamp': String(timestampSeconds),
		'webhook-signature': sign(secret, id, timestampSeconds, body),
	};
}

/** A SIP status event as the real sender writes it: a space after every `:` and `,`. */
export function sipEventBody(
	overrides: { outcome?: string; type?: string; extraData?: string } = {},
): string {
	const outcome = overrides.outcome ?? 'success';
	const type = overrides.type ?? 'meemoo.sip.archived';
	const detail =
		outcome === 'success'
			? '"pid": "kdleipkyuj"'
			: '"message": "sipin.sip-2.validate -- bad checksum"';
	return `{"type": "${type}", "timestamp": "2025-09-03T20:26:10.344522Z", "data": {"correlation_id": "843e9ba457593d0edf69a24baa0babf3", "outcome": "${outcome}", ${detail}${overrides.extraData ?? ''}}}`;
}

/**
 * Signature known-answer vectors: secret, id, timestamp, exact body bytes, signature. The one copy: the node's
 * tests and the sender emulator's test (test/dev/emulators/webhook.test.ts) import it.
 */
export const KNOWN_ANSWER_VECTORS = [
	{
		secret: 'whsec_YWxvbmd3ZWJob29rbWVlbW9vc2VjcmV0',
		id: 'msg_333a3NGSYKk1vyFtMgj9Qy8gm3y',
		timestamp: 1758548009,
		body: '{"type": "meemoo.sip.archived", "timestamp": "2025-09-03T20:26:10.344522Z", "data": {"correlation_id": "843e9ba457593d0edf69a24baa0babf3", "outcome": "success", "pid": "kdleipkyuj"}}',
		signature: 'v1,cVueLJYV5JY6qXHw3+MIHbZCPHHnX7N7jjaebaI2+5o=',
	},
	{
		secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
		id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
		timestamp: 1614265330,
		body: '{"test": 2432232314}',
		signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
	},
	{
		secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
		id: 'msg_27UH4WbU6Z5A5EzD8u03UvzRbpk',
		timestamp: 1649367553,
		body: '{"email":"test@example.com","username":"test_user"}',
		signature: 'v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw=',
	},
	{
		secret: 'whsec_plJ3nmyCDGBKInavdOK15jsl',
		id: 'msg_loFOjxBNrRLzqYUf',
		timestamp: 1731705121,
		body: '{"event_type":"ping","data":{"success":true}}',
		signature: 'v1,rAvfW3dJ/X/qxhsaXPOyyCGmRKsaKWcsNccKXlIktD0=',
	},
] as const;
