import { sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { NOW_SECONDS, deliver, errorOf, startTrigger, useTriggerHarness } from './triggerSetup';

useTriggerHarness();

describe('timestamp window', () => {
	it.each([
		{ label: '301 s old', timestamp: NOW_SECONDS - 301, status: 401 },
		{ label: '301 s ahead', timestamp: NOW_SECONDS + 301, status: 401 },
		{ label: '300 s old', timestamp: NOW_SECONDS - 300, status: 204 },
		{ label: '300 s ahead', timestamp: NOW_SECONDS + 300, status: 204 },
	])(
		'with the default 300 s tolerance, a delivery $label is answered $status',
		async ({ timestamp, status }) => {
			const trigger = await startTrigger();
			expect((await deliver(trigger, sipEventBody(), { timestamp })).status).toBe(status);
		},
	);

	it('names stale and future timestamps', async () => {
		const trigger = await startTrigger();
		expect(errorOf(await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3600 }))).toBe(
			'webhook-timestamp is too old',
		);
		expect(errorOf(await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS + 3600 }))).toBe(
			'webhook-timestamp is too far in the future',
		);
	});

	it('clamps the tolerance to one hour: a 10-day-old signed delivery is refused even with 1e9', async () => {
		const trigger = await startTrigger({ parameters: { options: { toleranceSeconds: 1e9 } } });
		const tenDaysOld = await deliver(trigger, sipEventBody(), {
			timestamp: NOW_SECONDS - 10 * 86_400,
		});
		expect(tenDaysOld.status).toBe(401);
		expect(errorOf(tenDaysOld)).toBe('webhook-timestamp is too old');
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3601 })).status).toBe(
			401,
		);
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 3600 })).status).toBe(
			204,
		);
		expect(trigger.runs()).toHaveLength(1);
	});

	it('honours a configured tolerance', async () => {
		const trigger = await startTrigger({ parameters: { options: { toleranceSeconds: 600 } } });
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 500 })).status).toBe(
			204,
		);
		expect((await deliver(trigger, sipEventBody(), { timestamp: NOW_SECONDS - 601 })).status).toBe(
			401,
		);
	});
});
