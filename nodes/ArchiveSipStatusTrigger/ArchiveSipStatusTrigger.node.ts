import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { sipStatusTriggerProperties, sipStatusWebhook } from './description';
import { executeTrigger } from './respond';
import { parseSigningKeys } from './verify/secrets';
import { receiveDelivery } from './webhook';

/** One output, or Success and Failure, then "Filtered Out" when that option is on (respond.ts routes the items). */
const OUTPUTS_EXPRESSION = `={{ ($parameter.outputMode === "perOutcome"
		? [{ "type": "main", "displayName": "Success" }, { "type": "main", "displayName": "Failure" }]
		: [{ "type": "main" }]).concat(($parameter.options || {}).sendFilteredOut === true
		? [{ "type": "main", "displayName": "Filtered Out" }]
		: []) }}` as const;

export class ArchiveSipStatusTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Archive SIP Status Trigger',
		name: 'archiveSipStatusTrigger',
		icon: { light: 'file:archiveSipStatus.svg', dark: 'file:archiveSipStatus.dark.svg' },
		group: ['trigger'],
		// One version, numbered 2 on purpose: for a version-1 webhook start node n8n evaluates the legacy Webhook
		// node's binary-data option as an expression on every request (webhook-helpers parseRequestBody).
		version: 2,
		subtitle:
			'={{ "On " + ($parameter.outcomes === "both" ? "any outcome" : $parameter.outcomes) }}',
		description:
			'Starts the workflow when the archive reports the outcome of a submitted SIP (signed Standard Webhooks event)',
		documentationUrl:
			'https://github.com/archive-services/n8n-nodes-archive-services#archive-sip-status-trigger',
		defaults: { name: 'Archive SIP Status Trigger' },
		inputs: [],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [
			{ name: 'archiveSipWebhookApi', required: true, testedBy: 'archiveSipWebhookSecretTest' },
		],
		webhooks: [sipStatusWebhook],
		eventTriggerDescription: 'Waiting for the archive to send a SIP status event to the Test URL',
		activationMessage: 'SIP status events sent to the Production URL now start this workflow.',
		triggerPanel: {
			header: 'Send a signed SIP status event to the Test URL',
			executionsHelp: {
				inactive:
					'Click \'Execute step\', then have the archive send an event to the Test URL, or sign one yourself with the <a href="https://github.com/archive-services/n8n-nodes-archive-services#testing-the-trigger" target="_blank">README\'s recipe</a>. Then give the archive the Production URL and activate the workflow (on n8n 2, publish it).',
				active:
					"Events the archive sends to the Production URL start this workflow. To try a change, click 'Execute step' and send a signed event to the Test URL.",
			},
			activationHint:
				'Give the archive the Production URL as the receiver of SIP status updates, then activate the workflow (on n8n 2, publish it).',
		},
		properties: sipStatusTriggerProperties,
	};

	// The archive is told the URL by hand (see the notice), so there is nothing to register remotely.
	webhookMethods = {
		default: {
			checkExists: async () => true,
			create: async () => true,
			delete: async () => true,
		},
	};

	methods = {
		credentialTest: {
			async archiveSipWebhookSecretTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				// No API to call: every invalid entry fails the test, a key of 16 to 23 bytes passes with a warning.
				const parsed = parseSigningKeys(
					credential.data?.signingSecret,
					credential.data?.additionalSecrets,
				);
				if (parsed.errors.length > 0) return { status: 'Error', message: parsed.errors.join('; ') };
				const count = parsed.keys.length;
				const summary = `${count} signing secret${count === 1 ? '' : 's'} valid`;
				const warning =
					parsed.warnings.length > 0 ? `. Warning: ${parsed.warnings.join('; ')}` : '';
				return { status: 'OK', message: `${summary}${warning}` };
			},
		},
	};

	webhook = receiveDelivery;

	execute = executeTrigger;
}
