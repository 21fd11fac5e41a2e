import { newMessageId, signatureHeader } from '../emulators/webhook/sender';
import { request } from './http';

/**
 * After n8n starts, the SIP Status Trigger answers 503 with Retry-After to every production delivery signed up to (the
 * second n8n loaded the node) + its Timestamp Tolerance: a copy of a delivery accepted before the start could run again
 * otherwise. The default tolerance (300 s) would hold every e2e run for five minutes, so workflows that real n8n
 * receives production deliveries for soon after it starts give the trigger a short tolerance, and their tests send
 * once past the refusal (waitPastStartRefusal) or retry like the archive's sender.
 *
 * 5 s, for tests that send one delivery after another: n8n loads the node a few seconds before it is ready, so the
 * refusal is over then or a second later (measured on 2 cores: 0 s on 2.40.7, about 1 s on 1.123.81), and each
 * delivery reaches the trigger within milliseconds of its signing.
 * Bursts at a loaded n8n use a longer one (BURST_SIP_TOLERANCE_SECONDS).
 */
export const E2E_SIP_TOLERANCE_SECONDS = 5;

/**
 * For bursts and concurrent senders (durability bursts, queue mode, the trigger bench): the archive's sender abandons an
 * attempt after 15 s (ATTEMPT_TIMEOUT_MS), so with a 15-s tolerance no attempt it still waits for is refused as stale,
 * however long it waited in a loaded n8n's queue (with 10 s, 16 attempts of a queue-mode Redis-outage burst were
 * answered 401). After each start of n8n the trigger refuses (503) every delivery signed up to that start + the
 * tolerance: about 12 s past n8n's readiness on 2 cores, where the default (5 minutes) would refuse the retries after
 * a kill for 5 minutes.
 */
export const BURST_SIP_TOLERANCE_SECONDS = 15;

/** The trigger's options with the e2e Timestamp Tolerance (or another one) added. */
export function withE2eTolerance(
	options: Record<string, unknown> = {},
	toleranceSeconds = E2E_SIP_TOLERANCE_SECONDS,
): Record<string, unknown> {
	return { ...options, toleranceSeconds };
}

export interface StartRefusalWait {
	/** How long the refusal held the caller (ms); 0 when n8n was already past it. */
	waitedMs: number;
	/** Probes answered 503 (the refusal after a start). */
	refusals: number;
	/** The last probe's status: 400 once the trigger takes deliveries (the probe is no status event). */
	status: number;
}

/**
 * Waits until the SIP trigger at `url` (a production URL) takes deliveries signed now: sends a probe, signed with
 * `secret` but whose body is no status event, and while the answer is the 503 that follows a start, sleeps its
 * Retry-After and probes again. The refusal comes before the body is read, so a probe is answered 503 during it and 400
 * after it: it never starts the workflow and is never recorded as accepted. Each URL is probed (every webhook
 * processor of a queue-mode cluster started at its own second).
 */
export async function waitPastStartRefusal(
	urls: string | readonly string[],
	secret: string,
	{ timeoutMs = 3_700_000 }: { timeoutMs?: number } = {},
): Promise<StartRefusalWait> {
	const started = Date.now();
	const deadline = started + timeoutMs;
	let refusals = 0;
	let status = 0;
	for (const url of typeof urls === 'string' ? [urls] : urls) {
		for (;;) {
			const body = '{"probe": "not a status event"}';
			const id = newMessageId();
			const timestamp = Math.floor(Date.now() / 1000);
			const answer = await request(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'webhook-id': id,
					'webhook-timestamp': String(timestamp),
					'webhook-signature': signatureHeader([secret], id, timestamp, body),
				},
				body,
			});
			status = answer.status;
			if (status !== 503) break;
			refusals += 1;
			const retryAfter = Number(answer.headers['retry-after']);
			if (!Number.isFinite(retryAfter) || retryAfter < 1)
				throw new Error(`503 without a usable Retry-After from ${url}: ${answer.body}`);
			if (Date.now() + retryAfter * 1000 > deadline)
				throw new Error(`still refused after ${timeoutMs} ms at ${url}: ${answer.body}`);
			await sleep(retryAfter * 1000);
		}
		if (status !== 400)
			throw new Error(
				`the start-refusal probe at ${url} got ${status}, expected 400 (no status event)`,
			);
	}
	return { waitedMs: refusals > 0 ? Date.now() - started : 0, refusals, status };
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
