import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { ArchiveSipStatusTrigger } from '../../../nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node';

/**
 * The SIP Status Trigger with its `webhook()` timed: process.cpuUsage around each call, in microseconds. Only the
 * handler is measured, not the HTTP server or the harness around it.
 */
export function timedSipTrigger(): { node: ArchiveSipStatusTrigger; take: () => number[] } {
	const node = new ArchiveSipStatusTrigger();
	let cpuMicros: number[] = [];
	const timed = Object.assign(Object.create(node) as ArchiveSipStatusTrigger, {
		async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
			const before = process.cpuUsage();
			try {
				return await node.webhook.call(this);
			} finally {
				const used = process.cpuUsage(before);
				cpuMicros.push(used.user + used.system);
			}
		},
	});
	return {
		node: timed,
		/** The figures since the last take. */
		take: () => {
			const taken = cpuMicros;
			cpuMicros = [];
			return taken;
		},
	};
}
