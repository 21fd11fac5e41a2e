import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IHttpRequestHelper,
	IHttpRequestMethods,
	INodeProperties,
} from 'n8n-workflow';

import { obtainAccessToken } from './accessToken';
import { sendTokenAsProperty } from './tokenPlacement';

/** The token-flow properties both API credentials end with: password, token lifetime, token placement, the token. */
export const tokenFlowProperties: INodeProperties[] = [
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
		description:
			'Lifetime requested for each access token. A new token is fetched only when the current one is rejected.',
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

interface TokenFlow {
	/** Shown in error messages, e.g. "AI Metadata API". */
	service: string;
	method: IHttpRequestMethods;
	/** The credential property holding the account name sent with HTTP Basic, and its name in the editor. */
	usernameProperty: string;
	usernameLabel: string;
}

/** preAuthentication of both API credentials: a fresh token unless n8n holds a valid one. */
export async function requestAccessToken(
	helpers: IHttpRequestHelper['helpers'],
	credentials: ICredentialDataDecryptedObject,
	flow: TokenFlow,
): Promise<{ accessToken: string }> {
	const token = await obtainAccessToken(helpers, {
		service: flow.service,
		usernameLabel: flow.usernameLabel,
		method: flow.method,
		authUrl: String((credentials.authUrl as string | undefined) ?? ''),
		username: String((credentials[flow.usernameProperty] as string | undefined) ?? ''),
		password: String((credentials.password as string | undefined) ?? ''),
		lifetimeSeconds: Number(credentials.lifetimeSeconds ?? 3600),
		rejectedToken: String((credentials.accessToken as string | undefined) ?? ''),
	});
	return { accessToken: token.accessToken };
}

/** The credential test: the smallest GraphQL query, never following a redirect with the token. */
export function graphqlCredentialTest(urlProperty: string): ICredentialTestRequest {
	return {
		request: {
			method: 'POST',
			url: `={{$credentials.${urlProperty}}}`,
			headers: { 'content-type': 'application/json' },
			body: { query: 'query CredentialTest { __typename }' },
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
	};
}
