import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { request, type HttpResponse } from '../../n8n/http';

/** A SIP status sender for e2e: signs like the real one (Standard Webhooks), with fresh ids. */

/** The processor (of `count`) a load balancer hashing the `webhook-id` header picks (docs/queue-mode.md). */
export function routedProcessor(id: string, count: number): number {
	return createHash('sha256').update(id).digest()[0] % count;
}

export function newSigningSecret(): string {
	return `whsec_${randomBytes(32).toString('base64')}`;
}

export function newMessageId(): string {
	return `msg_${randomUUID().replace(/-/g, '')}`;
}

/** A status event as the real sender writes it: a space after every `:` and `,`. */
export function sipEvent(correlationId: string): string {
	return `{"type": "meemoo.sip.archived", "timestamp": "${new Date().toISOString()}", "data": {"correlation_id": "${correlationId}", "outcome": "success", "pid": "e2epid"}}`;
}

export interface Delivery {
	id: string;
	body: string;
}

/**
 * Sends a delivery signed now: a retry of the same delivery gets a fresh timestamp and signature. With `timeoutMs`
 * the sender gives up on the attempt (rejects with "gave up") when no answer came in time.
 */
export async function sendSigned(
	url: string,
	secret: string,
	delivery: Delivery,
	{ timeoutMs }: { timeoutMs?: number } = {},
): Promise<HttpResponse> {
	const now = new Date();
	return await request(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'webhook-id': delivery.id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': new Webhook(secret).sign(delivery.id, now, delivery.body),
		},
		body: delivery.body,
		timeoutMs,
	});
}

/** Exactly the headers and bytes of an earlier send (an attacker's or a proxy's replay). */
export function signedHeaders(
	secret: string,
	delivery: Delivery,
	at = new Date(),
): Record<string, string> {
	return {
		'content-type': 'application/json',
		'webhook-id': delivery.id,
		'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
		'webhook-signature': new Webhook(secret).sign(delivery.id, at, delivery.body),
	};
}

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(
	items: T[],
	limit: number,
	task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await task(items[index], index);
		}
	});
	await Promise.all(lanes);
	return results;
}
