'use strict';
// The trigger bench's floor (dev/bench/sections/trigger.ts): a community webhook trigger that does nothing but emit
// the delivery's body, unverified, and answer 204 at once, as the SIP Status Trigger does by default. What it costs is
// what n8n charges any community trigger for a delivery (on 2.x: an expression isolate per request for every start
// node that is not n8n's own Webhook node); ours over it is the share of our own work. Loaded only into the bench's
// own n8n, beside the package; plain JavaScript because n8n loads it as it is.

class BenchWebhookFloor {
	constructor() {
		this.description = {
			displayName: 'Bench Webhook Floor',
			name: 'benchWebhookFloor',
			icon: 'fa:flag-checkered',
			group: ['trigger'],
			// Version 2 like the SIP Status Trigger: n8n evaluates a binaryData expression per request for version 1.
			version: 2,
			description: 'Emits the body of every POST unverified and answers 204 (benchmark floor)',
			defaults: { name: 'Bench Webhook Floor' },
			inputs: [],
			outputs: ['main'],
			// Static values: n8n evaluates nothing to answer (the SIP trigger's are natively resolvable expressions).
			webhooks: [
				{
					name: 'default',
					httpMethod: 'POST',
					responseMode: 'onReceived',
					responseCode: 204,
					responseData: 'noData',
					path: 'bench-floor',
				},
			],
			properties: [],
		};
	}

	async webhook() {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}

module.exports = { BenchWebhookFloor };
