import * as path from 'node:path';

import type { INode, IWebhookDescription } from 'n8n-workflow';

import { ensureN8nInstall, selectedN8nVersions } from '../../dev/n8n/install';
import { describeIfPackageBuilt, packageUnderTest } from '../../dev/n8n/package';

/**
 * The built SIP Status Trigger's webhook description read by the n8n-workflow of each installed n8n: on 2.x its
 * response mode and code resolve natively (no expression isolate per delivery), as n8n's webhook helpers call it;
 * on 1.x, which has no native resolution, the templates are evaluated as before (the unit tests check they agree).
 */

interface NativeResolution {
	resolveWebhookDescriptionField?: (
		node: INode,
		description: IWebhookDescription,
		field: string,
	) => { resolved: boolean; value?: unknown };
	webhookDescriptionIsNativelyResolvable?: (description: IWebhookDescription) => boolean;
}

const pkg = packageUnderTest();

function builtWebhook(): IWebhookDescription {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const built = require(
		path.join(
			pkg.packageRoot,
			'dist/nodes/ArchiveSipStatusTrigger/ArchiveSipStatusTrigger.node.js',
		),
	) as { ArchiveSipStatusTrigger: new () => { description: { webhooks: IWebhookDescription[] } } };
	return new built.ArchiveSipStatusTrigger().description.webhooks[0];
}

function triggerNode(parameters: INode['parameters']): INode {
	return {
		id: 'n1',
		name: 'SIP Status',
		type: 'n8n-nodes-archive-services.archiveSipStatusTrigger',
		typeVersion: 2,
		position: [0, 0],
		parameters,
	};
}

describeIfPackageBuilt(pkg, 'ArchiveSipStatusTrigger')(
	'the SIP trigger webhook description in real n8n-workflow',
	() => {
		it.each(selectedN8nVersions())('n8n %s', (version) => {
			const install = ensureN8nInstall(version);
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const workflowModule = require(
				path.join(install.dir, 'node_modules', 'n8n-workflow'),
			) as NativeResolution;
			const webhook = builtWebhook();
			const { resolveWebhookDescriptionField, webhookDescriptionIsNativelyResolvable } =
				workflowModule;
			if (version.startsWith('1.')) {
				expect(resolveWebhookDescriptionField).toBeUndefined();
				return;
			}
			expect(webhookDescriptionIsNativelyResolvable!(webhook)).toBe(true);
			const resolve = (parameters: INode['parameters'], field: string) =>
				resolveWebhookDescriptionField!(triggerNode(parameters), webhook, field);
			expect(resolve({ respond: 'immediately' }, 'responseMode')).toEqual({
				resolved: true,
				value: 'onReceived',
			});
			expect(resolve({ respond: 'afterSaved' }, 'responseMode')).toEqual({
				resolved: true,
				value: 'responseNode',
			});
			expect(resolve({ respond: 'immediately' }, 'responseCode')).toEqual({
				resolved: true,
				value: 204,
			});
			// A parameter holding an expression sends n8n back to its expression engine, as for its own nodes.
			expect(resolve({ respond: '={{ "afterSaved" }}' }, 'responseMode')).toEqual({
				resolved: false,
			});
		});
	},
);
