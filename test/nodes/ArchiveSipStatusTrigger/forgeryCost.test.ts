/**
 * What a request that can never verify costs: no credential read for a malformed, oversized, stale or future
 * timestamp, and one read at most for a burst of concurrent deliveries (forged or genuine) once the reused keys have
 * expired. Counted through the real webhook path: the node runs inside n8n-core's WebhookContext, and the harness
 * counts every credential n8n decrypts for it.
 */
import type { INodeParameters } from 'n8n-workflow';

import { ArchiveSipStatusTrigger } from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';
import { acceptedIds } from '../../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';
import {
	credentialReadsInFlight,
	SIGNING_KEY_REUSE_MS,
} from '../../../nodes/ArchiveSipStatusTrigger/verify/signingKeyCache';
import {
	freezeClock,
	postRaw,
	startWebhookHarness,
	unfreezeClock,
	type HttpAnswer,
	type WebhookHarness,
} from '../../../dev/harness/webhook';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE_NAME,
	signedHeaders,
	sipEventBody,
} from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';

const NOW_SECONDS = 1_758_548_009;
const SECRET = generateSecret();
/** 2001-01-01T00:00:00Z: a captured delivery from long ago. */
const YEAR_2001_SECONDS = 978_307_200;
const BURST = 300;

let harnesses: WebhookHarness[] = [];
let counter = 0;

/**
 * A trigger whose credential reads wait for `hold` while it is set (n8n reads credentials from its database, and
 * under a burst that takes long enough for every request to arrive) and fail while `failReads` is set.
 */
async function startTrigger(parameters: INodeParameters = {}) {
	counter += 1;
	const reads = { hold: undefined as Promise<void> | undefined, failReads: false };
	const harness = await startWebhookHarness(new ArchiveSipStatusTrigger(), {
		nodeTypeName: NODE_TYPE_NAME,
		workflowId: `forgery-cost-${counter}`,
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { signingSecret: SECRET } },
		credentialRead: async () => {
			await reads.hold;
			if (reads.failReads) throw new Error('the database is not reachable');
		},
	});
	harnesses.push(harness);
	return { harness, reads };
}

async function deliver(
	harness: WebhookHarness,
	{ secret = SECRET, timestamp = NOW_SECONDS }: { secret?: string; timestamp?: number } = {},
): Promise<HttpAnswer> {
	counter += 1;
	const body = sipEventBody();
	return await postRaw(
		harness.url,
		body,
		signedHeaders(secret, `msg_cost_${counter}`, timestamp, body),
	);
}

function errorOf(answer: HttpAnswer): string {
	return (JSON.parse(answer.body) as { error: string }).error;
}

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Sends `count` deliveries at once and holds every credential read until all of them have reached the node, so the
 * burst is concurrent whatever the machine's speed.
 */
async function burst(
	harness: WebhookHarness,
	reads: { hold: Promise<void> | undefined },
	count: number,
	send: () => Promise<HttpAnswer>,
): Promise<HttpAnswer[]> {
	let open!: () => void;
	reads.hold = new Promise<void>((resolve) => (open = resolve));
	const before = harness.requestsStarted();
	const answers = Promise.all(Array.from({ length: count }, send));
	while (harness.requestsStarted() < before + count) await sleep(5);
	// Every request is in the node now; give each a moment to reach its credential read.
	await sleep(200);
	open();
	reads.hold = undefined;
	return await answers;
}

beforeEach(() => {
	freezeClock(NOW_SECONDS * 1000);
	acceptedIds.reset(0);
});

afterEach(async () => {
	unfreezeClock();
	await Promise.all(harnesses.map(async (harness) => await harness.close()));
	harnesses = [];
});

describe('a request that can never verify reads no credential', () => {
	it('refuses a forgery with a timestamp from 2001 without reading the credential', async () => {
		const { harness } = await startTrigger();
		const answer = await deliver(harness, {
			secret: generateSecret(),
			timestamp: YEAR_2001_SECONDS,
		});
		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toBe('webhook-timestamp is too old');
		expect(harness.credentialReads()).toBe(0);
	});

	it.each([
		['from the future', String(NOW_SECONDS + 3600), 'webhook-timestamp is too far in the future'],
		['malformed', '17585480x9', 'webhook-timestamp must be integer seconds since the epoch'],
		[
			'in milliseconds',
			String(NOW_SECONDS * 1000),
			'webhook-timestamp must be integer seconds since the epoch',
		],
		['oversized', '1'.repeat(40), 'webhook-timestamp header is too long'],
	])('refuses a timestamp %s without reading the credential', async (_case, timestamp, reason) => {
		const { harness } = await startTrigger();
		const body = sipEventBody();
		const headers = {
			...signedHeaders(generateSecret(), 'msg_cost_header', NOW_SECONDS, body),
			'webhook-timestamp': timestamp,
		};
		const answer = await postRaw(harness.url, body, headers);
		expect(answer.status).toBe(401);
		expect(errorOf(answer)).toBe(reason);
		expect(harness.credentialReads()).toBe(0);
	});

	it("uses the node's Timestamp Tolerance for that check, without reading the credential", async () => {
		const { harness } = await startTrigger({ options: { toleranceSeconds: 60 } });
		const stale = await deliver(harness, { timestamp: NOW_SECONDS - 61 });
		expect(stale.status).toBe(401);
		expect(errorOf(stale)).toBe('webhook-timestamp is too old');
		expect(harness.credentialReads()).toBe(0);
		expect((await deliver(harness, { timestamp: NOW_SECONDS - 60 })).status).toBe(204);
		expect(harness.credentialReads()).toBe(1);
	});
});

describe('concurrent deliveries share one credential read', () => {
	/** A trigger that has read its keys once, with the clock moved past the reuse window. */
	async function triggerWithExpiredKeys() {
		const started = await startTrigger();
		expect((await deliver(started.harness)).status).toBe(204);
		expect(started.harness.credentialReads()).toBe(1);
		freezeClock(NOW_SECONDS * 1000 + SIGNING_KEY_REUSE_MS + 1000);
		return started;
	}
	const later = NOW_SECONDS + SIGNING_KEY_REUSE_MS / 1000 + 1;

	it(`reads the credential at most once for ${BURST} concurrent forgeries after the keys expired`, async () => {
		const { harness, reads } = await triggerWithExpiredKeys();
		const answers = await burst(harness, reads, BURST, async () =>
			deliver(harness, { secret: generateSecret(), timestamp: later }),
		);
		expect(answers.every((answer) => answer.status === 401)).toBe(true);
		expect(errorOf(answers[0])).toBe('no valid webhook signature');
		expect(harness.credentialReads() - 1).toBeLessThanOrEqual(1);
		expect(harness.runs()).toHaveLength(1);
	});

	it(`reads the credential at most once for ${BURST} concurrent genuine deliveries after the keys expired`, async () => {
		const { harness, reads } = await triggerWithExpiredKeys();
		const answers = await burst(harness, reads, BURST, async () =>
			deliver(harness, { timestamp: later }),
		);
		expect(answers.map((answer) => answer.status)).toEqual(Array(BURST).fill(204));
		expect(harness.credentialReads() - 1).toBeLessThanOrEqual(1);
		expect(harness.runs()).toHaveLength(BURST + 1);
	});

	it('does not keep a failed read: the deliveries waiting on it get 500, the next delivery reads again', async () => {
		const { harness, reads } = await startTrigger();
		reads.failReads = true;
		const answers = await burst(harness, reads, 5, async () => deliver(harness));
		expect(answers.map((answer) => answer.status)).toEqual([500, 500, 500, 500, 500]);
		expect(harness.credentialReads()).toBe(1);
		expect(credentialReadsInFlight()).toBe(0);

		reads.failReads = false;
		expect((await deliver(harness)).status).toBe(204);
		expect(harness.credentialReads()).toBe(2);
		expect(harness.runs()).toHaveLength(1);
	});
});
