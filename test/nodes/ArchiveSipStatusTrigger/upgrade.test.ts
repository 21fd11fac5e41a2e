/**
 * An upgrade from the layout that kept accepted ids in the workflow's static data (up to 0.1.0's process record):
 * a "process" is an isolated copy of the node module (its own memory) behind a loopback HTTP server, reading the
 * workflow row the way n8n's LiveWebhooks does (static data loaded for every request, saved when changed).
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { LEGACY_RECORD_KEY } from '../../../nodes/ArchiveSipStatusTrigger/replay/legacyRecord';
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
import { loadIsolatedNodeType } from './triggerSetup';

const SECRET = newSecret();

/** The row n8n keeps per workflow; only static data matters here. */
interface WorkflowRow {
	staticData: IDataObject;
}

type Processor = WebhookHarness;

/** One n8n process: its own module memory, the workflow row read and written per request. */
async function startProcessor(row: WorkflowRow, workflowId: string): Promise<Processor> {
	const processor = await startWebhookHarness(loadIsolatedNodeType(), {
		nodeTypeName: NODE_TYPE_NAME,
		credentials: { [CREDENTIAL_TYPE]: { signingSecret: SECRET } },
		workflowId,
		sharedStaticData: row,
	});
	processors.push(processor);
	return processor;
}

const processors: Processor[] = [];
let workflowCounter = 0;

afterEach(async () => {
	await Promise.all(processors.splice(0).map(async (each) => await each.close()));
});

function newRow(staticData: IDataObject = {}): { row: WorkflowRow; workflowId: string } {
	workflowCounter += 1;
	// n8n keeps each node's static data under `node:<name>`.
	return {
		row: { staticData: { [`node:${TRIGGER_NODE_NAME}`]: staticData } },
		workflowId: `upgrade-${workflowCounter}`,
	};
}

async function deliver(processor: Processor, id: string): Promise<HttpAnswer> {
	const body = sipEventBody();
	return await postRaw(
		processor.url,
		body,
		signedHeaders(SECRET, id, Math.floor(Date.now() / 1000), body),
	);
}

/** The earlier layouts' key: 12 characters of the id's SHA-256 (base64url). */
const legacyKey = (id: string) =>
	createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 12);

const HOUR_MS = 3_600_000;

describe('ids recorded by the earlier layout (workflow static data)', () => {
	it('are honoured after the upgrade: a retry of one is a replay, a new id runs', async () => {
		const expiryHour = Math.ceil((Date.now() + 10 * HOUR_MS) / HOUR_MS);
		const { row, workflowId } = newRow({
			[LEGACY_RECORD_KEY]: {
				[String(expiryHour)]: legacyKey('msg_before_1') + legacyKey('msg_before_2'),
			},
		});
		const processor = await startProcessor(row, workflowId);

		expect((await deliver(processor, 'msg_before_2')).status).toBe(204);
		expect((await deliver(processor, 'msg_before_1')).status).toBe(204);
		expect(processor.runs()).toHaveLength(0);
		expect((await deliver(processor, 'msg_after_1')).status).toBe(204);
		expect(processor.runs()).toHaveLength(1);
	});

	it('are honoured in the layout before that (key -> expiry minute)', async () => {
		const expiryMinute = Math.ceil((Date.now() + HOUR_MS) / 60_000);
		const { row, workflowId } = newRow({
			[LEGACY_RECORD_KEY]: { [`${legacyKey('msg_oldest')}xxxxxxxxxx`]: expiryMinute },
		});
		const processor = await startProcessor(row, workflowId);
		expect((await deliver(processor, 'msg_oldest')).status).toBe(204);
		expect(processor.runs()).toHaveLength(0);
	});

	it('are honoured by every process reading the row, not only the first', async () => {
		const expiryHour = Math.ceil((Date.now() + HOUR_MS) / HOUR_MS);
		const { row, workflowId } = newRow({
			[LEGACY_RECORD_KEY]: { [String(expiryHour)]: legacyKey('msg_kept') },
		});
		const first = await startProcessor(row, workflowId);
		const second = await startProcessor(row, workflowId);
		expect((await deliver(first, 'msg_kept')).status).toBe(204);
		expect((await deliver(second, 'msg_kept')).status).toBe(204);
		expect(first.runs().length + second.runs().length).toBe(0);
	});

	it('leave the static data once all have expired; new ids are never written there', async () => {
		const pastHour = Math.floor((Date.now() - HOUR_MS) / HOUR_MS);
		const { row, workflowId } = newRow({
			[LEGACY_RECORD_KEY]: { [String(pastHour)]: legacyKey('msg_expired') },
			unrelated: 'kept',
		});
		const processor = await startProcessor(row, workflowId);
		expect((await deliver(processor, 'msg_expired')).status).toBe(204);
		expect(processor.runs()).toHaveLength(1);
		expect(row.staticData).toEqual({ [`node:${TRIGGER_NODE_NAME}`]: { unrelated: 'kept' } });

		for (const id of ['msg_new_1', 'msg_new_2', 'msg_new_3'])
			expect((await deliver(processor, id)).status).toBe(204);
		expect(processor.runs()).toHaveLength(4);
		expect(row.staticData).toEqual({ [`node:${TRIGGER_NODE_NAME}`]: { unrelated: 'kept' } });
	});

	it('are not read for a forged delivery: only a verified one touches the static data', async () => {
		const pastHour = Math.floor((Date.now() - HOUR_MS) / HOUR_MS);
		const stored = { [LEGACY_RECORD_KEY]: { [String(pastHour)]: legacyKey('msg_forged') } };
		const { row, workflowId } = newRow(stored);
		const processor = await startProcessor(row, workflowId);
		const body = sipEventBody();
		const forged = await postRaw(
			processor.url,
			body,
			signedHeaders(newSecret(), 'msg_forged', Math.floor(Date.now() / 1000), body),
		);
		expect(forged.status).toBe(401);
		expect(row.staticData).toEqual({ [`node:${TRIGGER_NODE_NAME}`]: stored });

		expect((await deliver(processor, 'msg_forged')).status).toBe(204);
		expect(row.staticData).toEqual({ [`node:${TRIGGER_NODE_NAME}`]: {} });
	});

	it('ignores a record it cannot read instead of failing the delivery', async () => {
		const { row, workflowId } = newRow({ [LEGACY_RECORD_KEY]: 'not a record' });
		const processor = await startProcessor(row, workflowId);
		expect((await deliver(processor, 'msg_unreadable')).status).toBe(204);
		expect(processor.runs()).toHaveLength(1);
	});
});
