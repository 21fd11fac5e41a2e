import { formatFigures } from '../../dev/e2e/queue/figures';

describe('queue-mode figures printout', () => {
	it('prints the worker table where it was measured and says where it was not', () => {
		const text = formatFigures({
			'1.123.81': {
				trigger: [
					{ workers: 1, events: 60, eventsPerSecond: 8.44, p50Ms: 2827.2, p99Ms: 3750, lost: 0 },
					{ workers: 2, events: 60, eventsPerSecond: 7.9, p50Ms: 1306, p99Ms: 2892, lost: 0 },
				],
				tokenRequests: { executions: 50, tokens: 1 },
			},
			'2.40.7': { trigger: [], tokenRequests: { executions: 50, tokens: 1 } },
		});
		const [, oneX, twoX] = text.split(/^n8n /m);

		expect(oneX).toContain('workers events  events/s');
		expect(oneX).toMatch(/^ {2}1 +60 +8\.4 +2827 +3750 +0$/m);
		expect(oneX).toMatch(/^ {2}2 +60 +7\.9 +1306 +2892 +0$/m);
		expect(twoX).not.toContain('events/s');
		expect(twoX).toContain('workers: not measured (E2E_QUEUE_WORKER_FIGURES=all)');
		expect(twoX).toContain('token requests: 1 for 50 executions over both workers');
	});
});
