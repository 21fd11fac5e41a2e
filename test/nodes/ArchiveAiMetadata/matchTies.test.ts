import type { IDataObject } from 'n8n-workflow';

import { ArchiveAiMetadataTrigger } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadataTrigger.node';
import type { Sandbox } from '../../../dev/emulators';
import { PollHarness } from '../../../dev/harness/poll';
import { aiCredentials } from '../../../dev/harness/sandboxCredentials';
import { jsonOf, resetState, runAi, withSandbox } from './helpers';

/**
 * Matches that tie on cluster_uuid, refset_person_id and matched_time. The emulator orders rows tied on every
 * order_by column anew on each request (as Postgres may), so only a total order pages without loss or repeats.
 */
describe('matches tied on cluster, person and time', () => {
	let sandbox: Sandbox;
	let tied: IDataObject[];
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 200, aiUnstableTies: true });
		const [first] = sandbox.data.ai.records('face_matches');
		const values = {
			cluster_uuid: first.cluster_uuid,
			refset_person_id: first.refset_person_id,
			matched_time: '2026-01-01T00:00:00Z',
		};
		tied = sandbox.data.ai.insert('face_matches', { count: 12, values }) as IDataObject[];
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	/** What tells the tied rows apart. */
	const identity = (row: IDataObject) =>
		JSON.stringify([
			row.cluster_uuid,
			row.refset_person_id,
			row.matched_time,
			row.match_score,
			row.time_intervals,
		]);

	it('Return All in small pages gives every match exactly once', async () => {
		const result = await runAi(sandbox, {
			resource: 'faceMatch',
			operation: 'getAll',
			returnAll: true,
			filters: { clusterUuid: String(tied[0].cluster_uuid) },
			options: { pageSize: 2, maxConcurrency: 1 },
		});
		expect(result.error).toBeUndefined();
		const expected = (sandbox.data.ai.records('face_matches') as IDataObject[]).filter(
			(row) => row.cluster_uuid === tied[0].cluster_uuid,
		);
		expect(expected.length).toBeGreaterThanOrEqual(13);
		expect(jsonOf(result).map(identity).sort()).toEqual(expected.map(identity).sort());
	});

	it('the trigger emits every tied match once, one per poll', async () => {
		const trigger = new PollHarness({
			nodeType: new ArchiveAiMetadataTrigger(),
			parameters: {
				view: 'face_matches',
				output: 'raw',
				options: { maxRecordsPerPoll: 1, startFrom: '2025-12-31T00:00:00Z' },
			},
			credentials: aiCredentials(sandbox),
		});
		const seen: IDataObject[] = [];
		for (let poll = 0; poll < tied.length; poll++) {
			const outcome = await trigger.poll();
			expect(outcome.error).toBeUndefined();
			seen.push(...(outcome.items?.[0] ?? []).map((item) => item.json));
		}
		expect((await trigger.poll()).items).toBeNull();
		expect(seen.map(identity).sort()).toEqual(tied.map(identity).sort());
	});
});
