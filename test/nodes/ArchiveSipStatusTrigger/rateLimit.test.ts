import { freezeClock } from '../../../dev/harness/webhook';
import { sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { generateSecret } from '../../../dev/emulators/webhook/sender';
import { NOW_SECONDS, deliver, startTrigger, useTriggerHarness } from './triggerSetup';

useTriggerHarness();

describe('rate limit', () => {
	it('answers 429 beyond the configured events per minute, and the event can be retried later', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventsPerMinute: 2 } } });
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		const limited = await deliver(trigger, sipEventBody(), { id: 'msg_limited' });
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('30');
		expect(trigger.runs()).toHaveLength(2);

		freezeClock((NOW_SECONDS + 30) * 1000);
		const retried = await deliver(trigger, sipEventBody(), {
			id: 'msg_limited',
			timestamp: NOW_SECONDS + 30,
		});
		expect(retried.status).toBe(204);
		expect(trigger.runs()).toHaveLength(3);
	});

	it('is off by default', async () => {
		const trigger = await startTrigger();
		for (let index = 0; index < 30; index += 1) {
			expect((await deliver(trigger, sipEventBody())).status).toBe(204);
		}
		expect(trigger.runs()).toHaveLength(30);
	});

	it('does not count unsigned deliveries', async () => {
		const trigger = await startTrigger({ parameters: { options: { eventsPerMinute: 1 } } });
		for (let index = 0; index < 3; index += 1) {
			expect((await deliver(trigger, sipEventBody(), { secret: generateSecret() })).status).toBe(
				401,
			);
		}
		expect((await deliver(trigger, sipEventBody())).status).toBe(204);
	});
});
