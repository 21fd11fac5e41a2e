import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IHttpRequestHelper,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { obtainAccessToken } from './accessToken';

/** The "Token URL" field both API credentials start with. */
export function tokenUrlProperty(hint?: string): INodeProperties {
	return {
		displayName: 'Token URL',
		name: 'authUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://auth.example.org',
		...(hint === undefined ? {} : { hint }),
		description: 'Base URL of the token service; the token is requested from this URL plus /token',
	};
}

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
	// Both gateways accept the token as `Authorization: Bearer` or as the `jwtauth` query parameter.
	{
		displayName: 'Send Token As',
		name: 'jwtPlacement',
		type: 'options',
		options: [
			{ name: 'Authorization Header (Bearer)', value: 'header' },
			{ name: 'Query Parameter (Jwtauth)', value: 'query' },
		],
		default: 'header',
		description: 'Where each API call carries the token',
	},
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

/** preAuthentication of an API credential: a fresh token unless n8n holds a valid one. */
export function tokenPreAuthentication(flow: TokenFlow) {
	return async function (
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<{ accessToken: string }> {
		const text = (name: string) => String((credentials[name] as string | undefined) ?? '');
		const accessToken = await obtainAccessToken(this.helpers, {
			service: flow.service,
			usernameLabel: flow.usernameLabel,
			method: flow.method,
			authUrl: text('authUrl'),
			username: text(flow.usernameProperty),
			password: text('password'),
			lifetimeSeconds: Number(credentials.lifetimeSeconds ?? 3600),
			rejectedToken: text('accessToken'),
		});
		return { accessToken };
	};
}

/** Puts the credential's access token where "Send Token As" says. */
export async function withAccessToken(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const token = String((credentials.accessToken as string | undefined) ?? '');
	if (credentials.jwtPlacement === 'query') {
		return { ...requestOptions, qs: { ...(requestOptions.qs ?? {}), jwtauth: token } };
	}
	return {
		...requestOptions,
		headers: { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${token}` },
	};
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
