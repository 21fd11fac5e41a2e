import { runReplayRecordBench } from '../../dev/bench/replayRecord';

/** A reduced run of the replay-record benchmark: it works end to end and each kind is answered as it should. No timings. */
describe('replay-record benchmark (smoke)', () => {
	it('fills the record and measures verified, replayed and forged deliveries at each size', async () => {
		const result = await runReplayRecordBench({ sizes: [0, 1000], deliveries: 5 });
		expect(result.rows.map((row) => row.recorded)).toEqual([0, 1000]);
		for (const row of result.rows) {
			expect(row.statuses).toEqual({
				verified: { 204: 5 },
				replay: { 204: 5 },
				forged: { 401: 5 },
			});
		}
	});
});
