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

	documentationUrl =
		'https://github.com/archive-services/n8n-nodes-archive-services#archive-organization-api';

	properties: INodeProperties[] = [
		tokenUrlProperty(
			'Production and QAS have different token hosts: create one credential per environment',
		),
		{
			displayName: 'API URL',
			name: 'apiUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.org/organisation_v2',
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
		...tokenFlowProperties,
	];

	preAuthentication = tokenPreAuthentication({
		service: 'Organization API',
		method: 'GET',
		usernameProperty: 'username',
		usernameLabel: 'Username',
	});

	authenticate = withAccessToken;

	// Never carries the token along a redirect to another host.
	test = graphqlCredentialTest('apiUrl');
}
