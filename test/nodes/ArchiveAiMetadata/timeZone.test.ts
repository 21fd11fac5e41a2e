import { getGlobalState, setGlobalState } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { parseTimestamptz } from '../../../dev/emulators/core/timestamps';
import type { Sandbox } from '../../../dev/emulators';
import { jsonOf, resetState, runAi, withSandbox } from './helpers';

/** Wall-clock text (no zone) of a UTC instant in Tokyo (UTC+9 all year), as n8n's date picker would give it. */
function tokyoWallClock(epochMs: number): string {
	return new Date(epochMs + 9 * 3600_000).toISOString().slice(0, 19);
}

/**
 * "Time From" / "Time To" without a zone are wall-clock times of the workflow's timezone, as the trigger's "Start
 * From" reads them (the test workflow has no timezone setting, so n8n's default timezone applies).
 */
describe('Time From / Time To in the workflow timezone', () => {
	let sandbox: Sandbox;
	const previous = getGlobalState();
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 200 });
		setGlobalState({ ...previous, defaultTimezone: 'Asia/Tokyo' });
	});
	afterAll(async () => {
		setGlobalState(previous);
		await sandbox.close();
	});
	beforeEach(async () => resetState(sandbox));

	it('reads zone-less times in the workflow timezone and zoned ones as given', async () => {
		const at = '2024-05-05T12:00:00.5Z';
		const inserted = sandbox.data.ai.insert('speech_tasks', { count: 2, at });
		const atMs = Date.parse(at);
		const within = (from: number, to: number) =>
			(sandbox.data.ai.records('speech_tasks') as IDataObject[])
				.filter((row) => {
					const micros = parseTimestamptz(String(row.processed_time)) as number;
					return micros >= from * 1000 && micros < to * 1000;
				})
				.map((row) => row.task_id)
				.sort();
		const run = async (timeFrom: string, timeTo: string) => {
			const result = await runAi(sandbox, {
				resource: 'speechTask',
				operation: 'getAll',
				returnAll: true,
				filters: { timeFrom, timeTo },
			});
			expect(result.error).toBeUndefined();
			return jsonOf(result)
				.map((row) => row.task_id)
				.sort();
		};

		const expected = within(atMs - 1800_000, atMs + 1800_000);
		expect(expected).toEqual(expect.arrayContaining(inserted.map((row) => row.task_id)));
		expect(await run(tokyoWallClock(atMs - 1800_000), tokyoWallClock(atMs + 1800_000))).toEqual(
			expected,
		);
		expect(await run('2024-05-05T20:30:00+09:00', '2024-05-05T12:30:00Z')).toEqual(expected);
	});

	it('names the parameter when the date cannot be read', async () => {
		const result = await runAi(sandbox, {
			resource: 'faceTask',
			operation: 'getAll',
			filters: { timeTo: 'next friday' },
		});
		expect(result.error?.message).toMatch(/^Parameter "Time To": is not an ISO 8601 date/);
	});
});
