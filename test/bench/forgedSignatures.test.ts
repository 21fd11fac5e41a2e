import { runForgedSignatureBench } from '../../dev/bench/forgedSignatures';

/** A reduced run of the forged-signature benchmark: it works end to end and answers as it should. No timings. */
describe('forged-signature benchmark (smoke)', () => {
	it('refuses every forgery with 401, accepts every valid delivery and reports its figures', async () => {
		const results = await runForgedSignatureBench({ cpuRequests: 5, benign: 5, forgers: 2 });

		expect(results.statuses).toEqual({
			valid: { 204: 5 },
			commas16k: { 401: 5 },
			tenEntries: { 401: 5 },
			malformed: { 401: 5 },
		});
		for (const figure of [
			...Object.values(results.cpuMicrosPerRequest),
			results.benignP99Ms.withoutForgers,
			results.benignP99Ms.withForgers,
		]) {
			expect(Number.isFinite(figure)).toBe(true);
		}
		expect(results.forgeriesSent).toBeGreaterThan(0);
		expect(results.controlSent).toBeGreaterThan(0);
		expect(Number.isFinite(results.benignP99Ms.withControlSenders)).toBe(true);
		// However many forgeries arrive, they cause at most one credential read per 5 s (plus one at the start).
		const { credentialReads, durationMs } = results.forgeryPhase;
		expect(credentialReads).toBeLessThanOrEqual(1 + Math.ceil(durationMs / 5000));
	});
});
