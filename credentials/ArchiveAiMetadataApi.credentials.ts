import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { obtainAccessToken } from './common/accessToken';
import { insecureUrlNotice } from './common/insecureUrl';
import { sendTokenAsProperty, withAccessToken } from './common/tokenPlacement';

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

	documentationUrl = 'https://github.com/archive-services/n8n-nodes-archive-services#archive-ai-metadata-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Token URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.example.org',
			description: 'Base URL of the token service; the token is requested from this URL plus /token',
		},
		{
			displayName: 'GraphQL Endpoint URL',
			name: 'graphqlUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.org/ai-results/v1/graphql',
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
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Token Lifetime (Seconds)',
			name: 'lifetimeSeconds',
			type: 'number',
			typeOptions: { minValue: 60 },
			default: 3600,
			description: 'Lifetime requested for each access token. A new token is fetched only when the current one is rejected.',
		},
		sendTokenAsProperty,
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const token = await obtainAccessToken(this.helpers, {
			service: 'AI Metadata API',
			method: 'POST',
			authUrl: String(credentials.authUrl ?? ''),
			username: String(credentials.email ?? ''),
			password: String(credentials.password ?? ''),
			lifetimeSeconds: Number(credentials.lifetimeSeconds ?? 3600),
			rejectedToken: String(credentials.accessToken ?? ''),
		});
		return { accessToken: token.accessToken };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withAccessToken(credentials, requestOptions);
	}

	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			url: '={{$credentials.graphqlUrl}}',
			headers: { 'content-type': 'application/json' },
			body: { query: 'query CredentialTest { __typename }' },
			// Never carry the token along a redirect to another host.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
	};
}
