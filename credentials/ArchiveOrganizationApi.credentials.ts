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
 * Organization GraphQL API (v2). Token: GET {Token URL}/token?grant_type=client_credentials&expires_in=N with
 * HTTP Basic user:password. Production and QAS have different hosts for both URLs: one credential per environment.
 */
export class ArchiveOrganizationApi implements ICredentialType {
	name = 'archiveOrganizationApi';

	displayName = 'Archive Organization API';

	icon: Icon = {
		light: 'file:../nodes/ArchiveOrganization/archiveOrganization.svg',
		dark: 'file:../nodes/ArchiveOrganization/archiveOrganization.dark.svg',
	};

	documentationUrl = 'https://github.com/archive-services/n8n-nodes-archive-services#archive-organization-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Token URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.example.org',
			hint: 'Production and QAS have different token hosts: create one credential per environment',
			description: 'Base URL of the token service; the token is requested from this URL plus /token',
		},
		{
			displayName: 'API URL',
			name: 'apiUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.org/organisation_v2',
			hint: 'The production or QAS endpoint ending in /organisation_v2, matching the token URL above',
		},
		insecureUrlNotice('authUrl', 'Token URL', 'the password'),
		insecureUrlNotice('apiUrl', 'API URL', 'the access token and every answer'),
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
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
			service: 'Organization API',
			method: 'GET',
			authUrl: String(credentials.authUrl ?? ''),
			username: String(credentials.username ?? ''),
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
			url: '={{$credentials.apiUrl}}',
			headers: { 'content-type': 'application/json' },
			body: { query: 'query CredentialTest { __typename }' },
			// Never carry the token along a redirect to another host.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
	};
}
