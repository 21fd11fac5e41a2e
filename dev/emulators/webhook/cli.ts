/** `cli.ts send ...`: fires signed SIP status events at a receiver and prints one JSON line per attempt. */
import {
	buildFailureEvent,
	buildSuccessEvent,
	deliverWithRetries,
	send,
	type SendOptions,
	type SendResult,
} from './sender';

const STALE_SECONDS = 600;
/** How often a 503 with Retry-After is waited out before the event counts as not delivered. */
const MAX_WAITS = 3;

function describe(result: SendResult, extra: Record<string, unknown> = {}): string {
	// Never print secrets or signatures; id, status and timing are enough to follow what happened.
	return JSON.stringify({
		id: result.id,
		timestamp: result.timestamp,
		status: result.status,
		latencyMs: Math.round(result.latencyMs * 10) / 10,
		error: result.error,
		...extra,
	});
}

export async function runSendCommand(flags: Map<string, string[]>): Promise<number> {
	const url = flags.get('url')?.at(-1);
	const secrets = flags.get('secret') ?? [];
	if (!url || !secrets.length) {
		console.error(
			'usage: cli.ts send --url URL --secret whsec_... [--secret ...] [--outcome success|failure] [--pid P] [--correlation-id C] [--reason R]',
		);
		console.error(
			'        [--type T] [--tamper] [--replay] [--stale] [--future] [--decoys N] [--count N] [--retries] [--compress F] [--no-wait]',
		);
		return 2;
	}
	const outcome = flags.get('outcome')?.at(-1) ?? 'success';
	if (outcome !== 'success' && outcome !== 'failure')
		throw new Error('--outcome must be success or failure');
	const count = Number(flags.get('count')?.at(-1) ?? '1');
	const options: SendOptions = {
		secrets,
		tamper: flags.has('tamper'),
		staleSeconds: flags.has('stale') ? STALE_SECONDS : undefined,
		futureSeconds: flags.has('future') ? STALE_SECONDS : undefined,
		decoySignatures: Number(flags.get('decoys')?.at(-1) ?? '0'),
	};
	let failures = 0;
	for (let i = 0; i < count; i++) {
		const common = {
			type: flags.get('type')?.at(-1),
			correlationId: flags.get('correlation-id')?.at(-1),
		};
		const event =
			outcome === 'success'
				? buildSuccessEvent({ ...common, pid: flags.get('pid')?.at(-1) })
				: buildFailureEvent({ ...common, reason: flags.get('reason')?.at(-1) });
		if (flags.has('retries')) {
			const compress = Number(flags.get('compress')?.at(-1) ?? '1000');
			const delivery = await deliverWithRetries(url, event, {
				...options,
				compress,
				onAttempt: (result, attempt) => console.log(describe(result, { attempt })),
			});
			if (!delivery.delivered) failures++;
			continue;
		}
		let first = await send(url, event, options);
		console.log(describe(first, { correlation_id: event.data.correlation_id }));
		// Right after n8n starts, the SIP trigger refuses production events (503) until its start + the Timestamp
		// Tolerance (5 minutes by default) and says when to come back: wait, then send again with a fresh signature.
		for (let waits = 0; !flags.has('no-wait') && waits < MAX_WAITS; waits++) {
			const seconds = Number(first.retryAfter);
			if (first.status !== 503 || !Number.isInteger(seconds) || seconds < 1) break;
			console.log(
				JSON.stringify({
					waiting: `${seconds} s`,
					reason:
						'n8n refuses events for a while after it starts (Retry-After); --no-wait to stop here',
				}),
			);
			await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
			first = await send(url, event, { ...options, id: first.id });
			console.log(describe(first, { correlation_id: event.data.correlation_id }));
		}
		if (first.status < 200 || first.status >= 300) failures++;
		if (flags.has('replay')) {
			// A replay resends the identical request: same id, timestamp and signature.
			const again = await send(url, event, {
				...options,
				id: first.id,
				timestamp: first.timestamp,
			});
			console.log(describe(again, { replay: true }));
		}
	}
	return failures ? 1 : 0;
}
