import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * Signing secret(s) of the SIP status webhook (Standard Webhooks: `whsec_` + base64, prefix optional). There is no
 * API to call, so the Archive SIP Status Trigger node tests this credential by checking the secrets
 * locally (its `archiveSipWebhookSecretTest` method).
 */
export class ArchiveSipWebhookApi implements ICredentialType {
	name = 'archiveSipWebhookApi';

	displayName = 'Archive SIP Webhook API';

	icon: Icon = {
		light: 'file:../nodes/ArchiveSipStatusTrigger/archiveSipStatus.svg',
		dark: 'file:../nodes/ArchiveSipStatusTrigger/archiveSipStatus.dark.svg',
	};

	documentationUrl =
		'https://github.com/archive-services/n8n-nodes-archive-services#archive-sip-webhook-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'e.g. whsec_...',
			hint: 'The secret the archive shows for your webhook endpoint, usually starting with "whsec_" (the base64 part alone works too). Not a "v1,..." signature.',
			description: 'Secret used to verify the webhook-signature header of every event',
		},
		{
			displayName: 'Additional Secrets',
			name: 'additionalSecrets',
			type: 'string',
			typeOptions: { password: true, rows: 3 },
			default: '',
			placeholder: 'e.g. whsec_...',
			description:
				'Other secrets that are also accepted while a secret is being rotated, one per line (or separated by spaces). An event is accepted when it is signed with any of the secrets.',
		},
	];
}
