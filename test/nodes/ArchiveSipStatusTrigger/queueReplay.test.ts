/**
 * Replay safety across processes (n8n queue mode): two "webhook processors" are two isolated copies
 * of the node module (separate process memory), each behind its own loopback HTTP server, sharing
 * one "database" the way n8n's LiveWebhooks does: workflow static data is loaded fresh for every
 * request and saved back when the node changed it.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeType, WorkflowExecuteMode } from 'n8n-workflow';

import {
	recordedReplayKeys,
	SHARED_REPLAY_CAPACITY,
	SHARED_REPLAY_KEY,
	sharedReplayKey,
	StaticDataReplayStore,
} from '../../../nodes/ArchiveSipStatusTrigger/replay/sharedReplayStore';
import {
	postRaw,
	startWebhookHarness,
	TRIGGER_NODE_NAME,
	type HttpAnswer,
	type WebhookHarness,
} from '../../../dev/harness/webhook';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE_NAME,
	newSecret,
	signedHeaders,
	sipEventBody,
} from './fixtures';

const SECRET = newSecret();

/** The row n8n keeps per workflow; only static data matters here. */
interface WorkflowRow {
	staticData: IDataObject;
}

type Processor = WebhookHarness;

function loadIsolatedNodeType(): INodeType {
	let nodeType: INodeType | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module =
			require('../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node') as typeof import('../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node');
		nodeType = new module.ArchiveSipStatusTrigger();
	});
	return nodeType!;
}

/** One n8n process: its own module memory, the shared row read and written per request. */
async function startProcessor(
	row: WorkflowRow,
	workflowId: string,
	mode: WorkflowExecuteMode = 'webhook',
): Promise<Processor> {
	return await startWebhookHarness(loadIsolatedNodeType(), {
		nodeTypeName: NODE_TYPE_NAME,
		credentials: { [CREDENTIAL_TYPE]: { signingSecret: SECRET } },
		mode,
		workflowId,
		sharedStaticData: row,
	});
}

const processors: Processor[] = [];
let workflowCounter = 0;

async function startQueueMode(count = 2, mode: WorkflowExecuteMode = 'webhook') {
	workflowCounter += 1;
	const row: WorkflowRow = { staticData: {} };
	const workflowId = `queue-replay-${workflowCounter}`;
	const started: Processor[] = [];
	for (let index = 0; index < count; index++)
		started.push(await startProcessor(row, workflowId, mode));
	processors.push(...started);
	return { row, workflowId, processors: started };
}

afterEach(async () => {
	await Promise.all(processors.splice(0).map((each) => each.close()));
});

/** Each call signs afresh with the current time: a sender retry has a new timestamp and signature. */
async function deliver(
	processor: Processor,
	id: string,
	body = sipEventBody(),
): Promise<HttpAnswer> {
	return await postRaw(
		processor.url,
		body,
		signedHeaders(SECRET, id, Math.floor(Date.now() / 1000), body),
	);
}

function recordedKeys(row: WorkflowRow): string[] {
	const nodeData = row.staticData[`node:${TRIGGER_NODE_NAME}`] as IDataObject | undefined;
	return nodeData ? recordedReplayKeys(nodeData) : [];
}

function totalRuns(all: Processor[]): number {
	return all.reduce((sum, each) => sum + each.runs().length, 0);
}

describe('replays across webhook processors sharing n8n static data', () => {
	it('drops a retry that reaches the other process than the first delivery', async () => {
		const {
			processors: [first, second],
		} = await startQueueMode();

		expect((await deliver(first, 'msg_cross_1')).status).toBe(204);
		const retry = await deliver(second, 'msg_cross_1');

		expect(retry.status).toBe(204);
		expect(first.runs()).toHaveLength(1);
		expect(second.runs()).toHaveLength(0);
	});

	it('runs every distinct event exactly once when deliveries and replays alternate between processes', async () => {
		const { processors: both } = await startQueueMode();
		const ids = Array.from({ length: 10 }, (_, index) => `msg_alt_${index}`);

		for (const [index, id] of ids.entries())
			expect((await deliver(both[index % 2], id)).status).toBe(204);
		for (const [index, id] of ids.entries())
			expect((await deliver(both[(index + 1) % 2], id)).status).toBe(204);

		expect(totalRuns(both)).toBe(ids.length);
	});

	it('records a fixed-size hash of the id, not the id itself', async () => {
		const {
			row,
			processors: [first],
		} = await startQueueMode(1);
		const longId = `msg_${'x'.repeat(250)}`;

		await deliver(first, longId);

		expect(recordedKeys(row)).toEqual([sharedReplayKey(longId)]);
		expect(JSON.stringify(row.staticData)).not.toContain('xxxxxxxx');
	});

	it('drops a replay after the only process restarted (memory lost, database kept)', async () => {
		const {
			row,
			workflowId,
			processors: [before],
		} = await startQueueMode(1);
		await deliver(before, 'msg_restart');
		processors.splice(processors.indexOf(before), 1);
		await before.close();

		const after = await startProcessor(row, workflowId);
		processors.push(after);
		expect((await deliver(after, 'msg_restart')).status).toBe(204);
		expect(after.runs()).toHaveLength(0);
	});

	it("writes an id lost to a concurrent save back on the accepting process's next delivery", async () => {
		const {
			row,
			processors: [first, second],
		} = await startQueueMode();
		const beforeConcurrentSave = structuredClone(row.staticData);
		await deliver(first, 'msg_overwritten');
		// The other process saved a copy it had read before that delivery: the id is gone.
		row.staticData = beforeConcurrentSave;
		expect(recordedKeys(row)).not.toContain(sharedReplayKey('msg_overwritten'));

		await deliver(first, 'msg_next');
		const replay = await deliver(second, 'msg_overwritten');

		expect(recordedKeys(row)).toEqual(
			expect.arrayContaining([sharedReplayKey('msg_overwritten'), sharedReplayKey('msg_next')]),
		);
		expect(replay.status).toBe(204);
		expect(first.runs()).toHaveLength(2);
		expect(second.runs()).toHaveLength(0);
	});

	it('keeps test-URL deliveries out of the shared record (n8n does not save them)', async () => {
		const {
			row,
			processors: [first],
		} = await startQueueMode(1, 'manual');

		expect((await deliver(first, 'msg_manual')).status).toBe(204);
		expect((await deliver(first, 'msg_manual')).status).toBe(204);

		expect(first.runs()).toHaveLength(1);
		expect(row.staticData).toEqual({});
	});

	it('does not record an unsigned delivery in the shared record', async () => {
		const {
			row,
			processors: [first, second],
		} = await startQueueMode();
		const body = sipEventBody();
		const forged = signedHeaders(newSecret(), 'msg_forged', Math.floor(Date.now() / 1000), body);

		expect((await postRaw(first.url, body, forged)).status).toBe(401);
		expect(recordedKeys(row)).toEqual([]);
		expect((await deliver(second, 'msg_forged')).status).toBe(204);
		expect(second.runs()).toHaveLength(1);
	});
});

describe('StaticDataReplayStore', () => {
	const HOUR = 3_600_000;

	it('answers seen for a live id and not after it expired', async () => {
		let now = 1_000 * HOUR;
		const data: IDataObject = {};
		const store = new StaticDataReplayStore(data, () => now);

		expect(await store.remember('msg_a', now + HOUR)).toBe(true);
		expect(await store.remember('msg_a', now + HOUR)).toBe(false);
		expect(await new StaticDataReplayStore(structuredClone(data), () => now).seen('msg_a')).toBe(
			true,
		);
		now += 2 * HOUR;
		expect(await store.seen('msg_a')).toBe(false);
	});

	it('drops expired ids, then the soonest-expiring ones beyond its capacity', async () => {
		const now = 1_000 * HOUR;
		const data: IDataObject = {};
		const store = new StaticDataReplayStore(data, () => now, 3);
		await store.remember('msg_soon', now + HOUR);
		await store.remember('msg_late_1', now + 5 * HOUR);
		await store.remember('msg_late_2', now + 6 * HOUR);
		await store.remember('msg_late_3', now + 7 * HOUR);

		expect(await store.seen('msg_soon')).toBe(false);
		expect(await store.seen('msg_late_1')).toBe(true);
		expect(recordedReplayKeys(data)).toHaveLength(3);
		expect(SHARED_REPLAY_CAPACITY).toBeGreaterThan(1000);
	});

	it('drops the oldest ids of one expiry hour first when it is over capacity', async () => {
		const now = 1_000 * HOUR;
		const data: IDataObject = {};
		const store = new StaticDataReplayStore(data, () => now, 2);
		for (const id of ['msg_first', 'msg_second', 'msg_third']) await store.remember(id, now + HOUR);

		expect(await store.seen('msg_first')).toBe(false);
		expect(await store.seen('msg_second')).toBe(true);
		expect(await store.seen('msg_third')).toBe(true);
	});

	it('keeps the record compact: a full store stays below 64 KB of static data', async () => {
		const now = 1_000 * HOUR;
		const data: IDataObject = {};
		const store = new StaticDataReplayStore(data, () => now);
		for (let index = 0; index < SHARED_REPLAY_CAPACITY + 100; index++) {
			await store.remember(`msg_${index}`, now + (index % 72) * HOUR + 1);
		}

		expect(recordedReplayKeys(data)).toHaveLength(SHARED_REPLAY_CAPACITY);
		expect(JSON.stringify(data).length).toBeLessThan(64 * 1024);
		expect(await store.seen(`msg_${SHARED_REPLAY_CAPACITY + 99}`)).toBe(true);
	});

	it('matches a key only at a key boundary, not inside two neighbours', async () => {
		const now = 1_000 * HOUR;
		const key = sharedReplayKey('msg_straddling');
		const straddled = `${'a'.repeat(6)}${key}${'b'.repeat(6)}`;
		const store = new StaticDataReplayStore(
			{ [SHARED_REPLAY_KEY]: { [String(1_001)]: straddled } },
			() => now,
		);

		expect(await store.seen('msg_straddling')).toBe(false);
	});

	it('still reads ids recorded in the earlier layout (key -> expiry minute), so an upgrade keeps them', async () => {
		const now = 1_000 * HOUR;
		const earlierKey = createHash('sha256')
			.update('msg_before_upgrade', 'utf8')
			.digest('base64url')
			.slice(0, 22);
		const data: IDataObject = { [SHARED_REPLAY_KEY]: { [earlierKey]: (now + HOUR) / 60_000 } };
		const store = new StaticDataReplayStore(data, () => now);

		expect(await store.seen('msg_before_upgrade')).toBe(true);
		expect(await store.remember('msg_after_upgrade', now + HOUR)).toBe(true);
		expect(recordedReplayKeys(data).sort()).toEqual(
			[sharedReplayKey('msg_before_upgrade'), sharedReplayKey('msg_after_upgrade')].sort(),
		);
	});

	it('forgets an id so a failed delivery can be retried', async () => {
		const data: IDataObject = {};
		const store = new StaticDataReplayStore(data, () => 0);
		await store.remember('msg_failed', HOUR);
		await store.forget('msg_failed');
		expect(await store.seen('msg_failed')).toBe(false);
	});

	it('ignores a record it cannot read instead of failing the delivery', async () => {
		const store = new StaticDataReplayStore({ [SHARED_REPLAY_KEY]: 'garbage' }, () => 0);
		expect(await store.seen('msg_any')).toBe(false);
		expect(await store.remember('msg_any', HOUR)).toBe(true);
	});
});
