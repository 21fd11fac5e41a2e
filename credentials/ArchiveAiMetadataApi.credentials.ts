import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

import { insecureUrlNotice } from './common/insecureUrl';
import {
	graphqlCredentialTest,
	tokenFlowProperties,
	tokenPreAuthentication,
	tokenUrlProperty,
	withAccessToken,
} from './common/tokenCredential';

/**
 * AI metadata GraphQL API (Hasura behind a gateway). Token: POST {Token URL}/token with HTTP Basic
 * e-mail:password and form `grant_type=client_credentials&expires_in=N`.
 */
export class ArchiveAiMetadataApi implements ICredentialType {
	name = 'archiveAiMetadataApi';

	displayName = 'Archive AI Metadata API';

	icon: Icon = {
		light: 'file:../nodes/ArchiveAiMetadata/archiveAiMetadata.svg',
		dark: 'file:../nodes/ArchiveAiMetadata/archiveAiMetadata.dark.svg',
	};

	documentationUrl =
		'https://github.com/archive-services/n8n-nodes-archive-services#archive-ai-metadata-api';

	properties: INodeProperties[] = [
		tokenUrlProperty(),
		{
			displayName: 'GraphQL Endpoint URL',
			name: 'graphqlUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.org/ai-results/v1/graphql',
			description: 'Full URL of the AI metadata GraphQL endpoint',
		},
		insecureUrlNotice('authUrl', 'Token URL', 'the password'),
		insecureUrlNotice('graphqlUrl', 'GraphQL Endpoint URL', 'the access token and every answer'),
		{
			displayName: 'E-Mail',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			required: true,
			description: 'E-mail address of your account',
		},
		...tokenFlowProperties,
		{
			displayName: 'Allowed Download Origins',
			name: 'allowedDownloadOrigins',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://archive-files.s3.eu-west-1.amazonaws.com',
			description:
				"Origins Download Files may fetch from (scheme://host[:port], comma-separated), such as the archive's object store. Empty allows only the GraphQL endpoint's origin; a refused download names the origin to add.",
		},
		{
			displayName: 'Allow Private Addresses',
			name: 'allowPrivateAddresses',
			type: 'boolean',
			default: false,
			description:
				'Whether Download Files may fetch from private, loopback, link-local, unique-local and cloud metadata addresses (e.g. an object store inside your network). Off: such addresses are refused, whether written in the link or answering for an allowed host name.',
		},
	];

	preAuthentication = tokenPreAuthentication({
		service: 'AI Metadata API',
		method: 'POST',
		usernameProperty: 'email',
		usernameLabel: 'E-Mail',
	});

	authenticate = withAccessToken;

	// Never carries the token along a redirect to another host.
	test = graphqlCredentialTest('graphqlUrl');
}
