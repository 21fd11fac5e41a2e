/**
 * In-flight deliveries are bounded: the process holds at most 10,000 deliveries as "in flight" (waiting for n8n's
 * answer); one more drops the oldest. inFlight.ts does not export its MAX_IN_FLIGHT_IDS, so the documented number is
 * written here. The module is loaded afresh, so the 10,001 held deliveries stay out of every other test's state.
 */
import type * as InFlight from '../../../nodes/ArchiveSipStatusTrigger/inFlight';
import { AcceptedIdRecord } from '../../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';

const DOCUMENTED_MAX_IN_FLIGHT = 10_000;

function freshInFlightModule(): typeof InFlight {
	let module: typeof InFlight | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		module = require('../../../nodes/ArchiveSipStatusTrigger/inFlight') as typeof InFlight;
	});
	return module!;
}

/** A response n8n has not answered yet, whose connection stays open. */
function pendingResponse(): InFlight.AnsweredResponse {
	return { statusCode: 200, headersSent: false, end: () => undefined, once: () => undefined };
}

describe('in-flight deliveries', () => {
	it(`holds at most ${DOCUMENTED_MAX_IN_FLIGHT.toLocaleString('en')} deliveries in flight: one more drops the oldest`, () => {
		const { holdUntilAnswered, isInFlight } = freshInFlightModule();
		const record = new AcceptedIdRecord();
		const keyOf = (index: number) => `record-key-${index}`;
		const hold = (index: number) =>
			holdUntilAnswered(
				pendingResponse(),
				{ scope: 'scope', id: `msg_${index}`, recordKeys: [keyOf(index)] },
				record,
			);

		for (let index = 0; index < DOCUMENTED_MAX_IN_FLIGHT; index++) hold(index);
		expect(isInFlight([keyOf(0)])).toBe(true);
		expect(isInFlight([keyOf(DOCUMENTED_MAX_IN_FLIGHT - 1)])).toBe(true);

		hold(DOCUMENTED_MAX_IN_FLIGHT);
		expect(isInFlight([keyOf(0)])).toBe(false);
		expect(isInFlight([keyOf(1)])).toBe(true);
		expect(isInFlight([keyOf(DOCUMENTED_MAX_IN_FLIGHT)])).toBe(true);
	});
});
