/**
 * The Code node of the careful user's workflow in the trigger bench: Standard Webhooks verification written by hand,
 * as a user who reads the spec (https://www.standardwebhooks.com) writes it for n8n's Webhook node with "Raw Body"
 * on. HMAC-SHA256 with the base64 key after `whsec_` over `<webhook-id>.<webhook-timestamp>.<raw body>`, every `v1,`
 * signature of the header compared in constant time (crypto.timingSafeEqual), the timestamp within a tolerance in
 * either direction. One item out: `{ verified: false }`, or the parsed event with `verified: true` (an If node then
 * sends it to a Respond to Webhook node answering 204, or 401).
 *
 * `require('crypto')` needs NODE_FUNCTION_ALLOW_BUILTIN=crypto in n8n's environment, as a user's n8n would.
 * The raw body is read with `this.helpers.getBinaryDataBuffer`, which works whatever n8n's binary data mode.
 */
export function carefulVerifierCode(secret: string, toleranceSeconds: number): string {
	return `// Standard Webhooks: HMAC-SHA256 over "<id>.<timestamp>.<raw body>", constant-time compare, timestamp tolerance.
const crypto = require('crypto');
const SECRET = ${JSON.stringify(secret)};
const TOLERANCE_SECONDS = ${JSON.stringify(toleranceSeconds)};
const key = Buffer.from(SECRET.replace(/^whsec_/, ''), 'base64');

const headers = $input.first().json.headers;
const id = headers['webhook-id'];
const timestamp = headers['webhook-timestamp'];
const signatures = headers['webhook-signature'];
const raw = await this.helpers.getBinaryDataBuffer(0, 'data');

let verified = false;
const fresh =
	typeof timestamp === 'string' &&
	/^[0-9]{1,12}$/.test(timestamp) &&
	Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) <= TOLERANCE_SECONDS;
if (fresh && typeof id === 'string' && typeof signatures === 'string') {
	const expected = crypto.createHmac('sha256', key).update(id + '.' + timestamp + '.').update(raw).digest();
	for (const entry of signatures.split(' ')) {
		const [version, signature] = entry.split(',');
		if (version !== 'v1' || !signature) continue;
		const given = Buffer.from(signature, 'base64');
		if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) verified = true;
	}
}
if (!verified) return [{ json: { verified: false } }];
return [{ json: { ...JSON.parse(raw.toString('utf8')), webhook_id: id, verified: true } }];
`;
}
