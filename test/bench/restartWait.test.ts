import { runRestartWait } from '../../dev/bench/restartWait';

/**
 * A reduced run of the restart-wait figures: after a restart, events signed within the Timestamp Tolerance wait for
 * the sender's retry that comes after it; every event is accepted in the end, none is lost.
 */
describe('restart wait (smoke)', () => {
	it('delays the events of the first tolerance after a restart until a retry past it, and accepts every event', async () => {
		const [row] = await runRestartWait({ tolerances: [300], offsets: [0], hourSeconds: 400 });
		expect(row.neverAccepted).toBe(0);
		// Every event first sent up to start + 300 s waits; those after it do not.
		expect(row.delayed).toBe(301);
		// The 5-minute retry (after the immediate and the 5-second ones) is past the window for every event.
		expect(row.maxWaitSeconds).toBe(305);
	});
});
