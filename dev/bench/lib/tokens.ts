import { request } from '../../n8n/http';
import type { Sandbox } from '../../emulators';

/** A token for the peers' header credential, fetched like any API client would. */
export async function fetchAiToken(sandbox: Sandbox): Promise<string> {
	const basic = Buffer.from(`${sandbox.ai.email}:${sandbox.ai.password}`).toString('base64');
	const response = await request(`${sandbox.ai.authUrl}/token`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${basic}`,
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: 'grant_type=client_credentials&expires_in=3600',
	});
	if (response.status !== 200) throw new Error(`token request answered ${response.status}`);
	return (JSON.parse(response.body) as { access_token: string }).access_token;
}
