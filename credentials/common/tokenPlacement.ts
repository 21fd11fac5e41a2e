import type {
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** Both gateways accept the token as `Authorization: Bearer` or as the `jwtauth` query parameter. */
export const sendTokenAsProperty: INodeProperties = {
	displayName: 'Send Token As',
	name: 'jwtPlacement',
	type: 'options',
	options: [
		{ name: 'Authorization Header (Bearer)', value: 'header' },
		{ name: 'Query Parameter (Jwtauth)', value: 'query' },
	],
	default: 'header',
	description: 'Where each API call carries the token',
};

/** Puts the credential's access token where "Send Token As" says. */
export function withAccessToken(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const token = String((credentials.accessToken as string | undefined) ?? '');
	if (credentials.jwtPlacement === 'query') {
		return { ...requestOptions, qs: { ...(requestOptions.qs ?? {}), jwtauth: token } };
	}
	return {
		...requestOptions,
		headers: { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${token}` },
	};
}
