import { recordedLogs } from '../../../dev/harness/webhook';
import { sipEventBody } from '../../../dev/emulators/webhook/fixtures';
import { SECRET, deliver, onlyItem, startTrigger, useTriggerHarness } from './triggerSetup';

useTriggerHarness();

describe('filters and outputs', () => {
	it('acknowledges but does not run for an outcome that is filtered out', async () => {
		const trigger = await startTrigger({ parameters: { outcomes: 'success' } });
		expect((await deliver(trigger, sipEventBody({ outcome: 'failure' }))).status).toBe(204);
		expect(trigger.runs()).toHaveLength(0);
		expect((await deliver(trigger, sipEventBody({ outcome: 'success' }))).status).toBe(204);
		expect(onlyItem(trigger).json.outcome).toBe('success');
	});

	it('can start only on failures', async () => {
		const trigger = await startTrigger({ parameters: { outcomes: 'failure' } });
		await deliver(trigger, sipEventBody({ outcome: 'success' }));
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		expect(onlyItem(trigger).json.outcome).toBe('failure');
	});

	it('routes success to output 1 and failure to output 2 with separate outputs', async () => {
		const trigger = await startTrigger({ parameters: { outputMode: 'perOutcome' } });
		await deliver(trigger, sipEventBody({ outcome: 'success' }));
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		const [successRun, failureRun] = trigger.runs();
		expect(successRun.map((items) => items.map((item) => item.json.outcome))).toEqual([
			['success'],
			[],
		]);
		expect(failureRun.map((items) => items.map((item) => item.json.outcome))).toEqual([
			[],
			['failure'],
		]);
	});

	it('by default starts for every type: a type the archive adds later is not dropped', async () => {
		const trigger = await startTrigger();
		expect((await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }))).status).toBe(204);
		await deliver(trigger, sipEventBody({ type: 'service.sip.archived' }));
		expect(trigger.runs().map((run) => run[0][0].json.type)).toEqual([
			'meemoo.ie.created',
			'service.sip.archived',
		]);
	});

	it('SIP Archived starts only for *.sip.archived, whatever the brand', async () => {
		const trigger = await startTrigger({ parameters: { eventTypes: 'sipArchived' } });
		expect((await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }))).status).toBe(204);
		expect((await deliver(trigger, sipEventBody({ type: 'meemoo.sip.archivedx' }))).status).toBe(
			204,
		);
		expect(trigger.runs()).toHaveLength(0);
		await deliver(trigger, sipEventBody({ type: 'service.sip.archived' }));
		expect(onlyItem(trigger).json.type).toBe('service.sip.archived');
	});

	it('Custom Patterns keeps filtering by *.sip.*, the value earlier builds defaulted to', async () => {
		const trigger = await startTrigger({
			parameters: { eventTypes: 'custom', customEventTypes: '*.sip.*' },
		});
		expect((await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }))).status).toBe(204);
		expect(trigger.runs()).toHaveLength(0);
		await deliver(trigger, sipEventBody({ type: 'service.sip.failed' }));
		expect(onlyItem(trigger).json.type).toBe('service.sip.failed');
	});

	it('ignores Custom Event Types unless Custom Patterns is chosen', async () => {
		const trigger = await startTrigger({ parameters: { customEventTypes: 'nothing.matches' } });
		await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }));
		expect(onlyItem(trigger).json.type).toBe('meemoo.ie.created');
	});

	it('uses a configured list of type patterns', async () => {
		const trigger = await startTrigger({
			parameters: { eventTypes: 'custom', customEventTypes: 'service.sip.archived,\n*.ie.*' },
		});
		await deliver(trigger, sipEventBody({ type: 'meemoo.sip.archived' }));
		await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }));
		await deliver(trigger, sipEventBody({ type: 'service.sip.archived' }));
		expect(trigger.runs().map((run) => run[0][0].json.type)).toEqual([
			'meemoo.ie.created',
			'service.sip.archived',
		]);
	});

	it('matches a backtracking-prone pattern against a 200-character type over HTTP without building a regex', async () => {
		const trigger = await startTrigger({
			parameters: { eventTypes: 'custom', customEventTypes: '*a*a*a*a*b' },
		});
		const built: string[] = [];
		const NativeRegExp = RegExp;
		const spy = jest.spyOn(globalThis, 'RegExp').mockImplementation((pattern, flags) => {
			built.push(String(pattern));
			return new NativeRegExp(pattern as string, flags);
		});
		try {
			expect((await deliver(trigger, sipEventBody({ type: 'a'.repeat(200) }))).status).toBe(204);
			expect((await deliver(trigger, sipEventBody({ type: `${'a'.repeat(199)}b` }))).status).toBe(
				204,
			);
		} finally {
			spy.mockRestore();
		}
		expect(trigger.runs().map((run) => run[0][0].json.type)).toEqual([`${'a'.repeat(199)}b`]);
		expect(built.filter((source) => source.includes('a.*a'))).toEqual([]);
	});

	it('starts for every type when the pattern list is empty', async () => {
		const trigger = await startTrigger({
			parameters: { eventTypes: 'custom', customEventTypes: '' },
		});
		await deliver(trigger, sipEventBody({ type: 'anything' }));
		expect(trigger.runs()).toHaveLength(1);
	});
});

describe('filtered-out events are never dropped without a trace', () => {
	function filterLogs(from: number) {
		return recordedLogs.slice(from).filter((entry) => entry.message.includes('filtered out'));
	}

	it('logs an event filtered out by type at info level with its type and webhook-id, never its body', async () => {
		const trigger = await startTrigger({
			parameters: { eventTypes: 'custom', customEventTypes: 'service.sip.archived' },
		});
		const logsBefore = recordedLogs.length;
		const body = sipEventBody({ type: 'meemoo.ie.created' });
		expect((await deliver(trigger, body, { id: 'msg_filtered_type' })).status).toBe(204);
		expect(trigger.runs()).toHaveLength(0);
		const logs = filterLogs(logsBefore);
		expect(logs).toHaveLength(1);
		expect(logs[0].level).toBe('info');
		expect(logs[0].message).toContain('Event Types');
		expect(logs[0].message).toContain('"meemoo.ie.created"');
		expect(logs[0].message).toContain('"msg_filtered_type"');
		const logged = JSON.stringify(recordedLogs.slice(logsBefore));
		expect(logged).not.toContain('843e9ba457593d0edf69a24baa0babf3');
		expect(logged).not.toContain(SECRET.slice('whsec_'.length));
	});

	it('logs an event filtered out by Start Workflow On, and nothing for the events it starts', async () => {
		const trigger = await startTrigger({ parameters: { outcomes: 'failure' } });
		const logsBefore = recordedLogs.length;
		await deliver(trigger, sipEventBody({ outcome: 'success' }), { id: 'msg_filtered_outcome' });
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		expect(onlyItem(trigger).json.outcome).toBe('failure');
		const logs = filterLogs(logsBefore);
		expect(logs).toHaveLength(1);
		expect(logs[0]).toMatchObject({ level: 'info' });
		expect(logs[0].message).toContain('Start Workflow On');
		expect(logs[0].message).toContain('"msg_filtered_outcome"');
	});

	it('keeps a long type to one short log line', async () => {
		const trigger = await startTrigger({
			parameters: { eventTypes: 'custom', customEventTypes: 'x' },
		});
		const logsBefore = recordedLogs.length;
		await deliver(trigger, sipEventBody({ type: `${'t'.repeat(5000)}\\nforged line` }));
		const [log] = filterLogs(logsBefore);
		expect(log.message.length).toBeLessThan(500);
		expect(log.message).not.toContain('\n');
	});

	it('sends filtered-out events to a last output "Filtered Out" when chosen, and others to the usual outputs', async () => {
		const trigger = await startTrigger({
			parameters: {
				outcomes: 'success',
				eventTypes: 'sipArchived',
				options: { sendFilteredOut: true },
			},
		});
		await deliver(trigger, sipEventBody({ outcome: 'success' }));
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created' }));
		const outputs = trigger
			.runs()
			.map((run) =>
				run.map((items) => items.map((item) => `${item.json.type}/${item.json.outcome}`)),
			);
		expect(outputs).toEqual([
			[['meemoo.sip.archived/success'], []],
			[[], ['meemoo.sip.archived/failure']],
			[[], ['meemoo.ie.created/success']],
		]);
		for (const run of trigger.runs()) {
			for (const items of run)
				for (const item of items) expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	it('puts Filtered Out after the Success and Failure outputs', async () => {
		const trigger = await startTrigger({
			parameters: {
				outputMode: 'perOutcome',
				eventTypes: 'sipArchived',
				options: { sendFilteredOut: true },
			},
		});
		await deliver(trigger, sipEventBody({ outcome: 'failure' }));
		await deliver(trigger, sipEventBody({ type: 'meemoo.ie.created', outcome: 'failure' }));
		const outputs = trigger.runs().map((run) => run.map((items) => items.length));
		expect(outputs).toEqual([
			[0, 1, 0],
			[0, 0, 1],
		]);
	});
});
