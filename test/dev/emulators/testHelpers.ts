/** Small HTTP clients used by the emulator tests (real requests over loopback). */
import type { Sandbox } from '../../../dev/emulators/index';

export async function aiToken(sandbox: Sandbox, expiresIn = 3600): Promise<string> {
	const response = await fetch(`${sandbox.ai.authUrl}/token`, {
		method: 'POST',
		headers: {
			authorization: basic(sandbox.ai.email, sandbox.ai.password),
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: `grant_type=client_credentials&expires_in=${expiresIn}`,
	});
	if (response.status !== 200) throw new Error(`token request failed: ${response.status}`);
	return ((await response.json()) as { access_token: string }).access_token;
}

export async function orgToken(sandbox: Sandbox, expiresIn = 3600): Promise<string> {
	const response = await fetch(
		`${sandbox.org.authUrl}/token?grant_type=client_credentials&expires_in=${expiresIn}`,
		{
			headers: { authorization: basic(sandbox.org.username, sandbox.org.password) },
		},
	);
	if (response.status !== 200) throw new Error(`token request failed: ${response.status}`);
	return ((await response.json()) as { access_token: string }).access_token;
}

export function basic(user: string, password: string): string {
	return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export interface GraphqlAnswer {
	status: number;
	body: {
		data?: Record<string, unknown> | null;
		errors?: Array<{ message: string; extensions?: Record<string, unknown>; path?: unknown[] }>;
	};
}

export async function postGraphql(
	url: string,
	token: string | undefined,
	query: string,
	variables?: Record<string, unknown>,
): Promise<GraphqlAnswer> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (token) headers.authorization = `Bearer ${token}`;
	const response = await fetch(url, {
		method: 'POST',
		headers,
		body: JSON.stringify({ query, variables }),
	});
	return { status: response.status, body: (await response.json()) as GraphqlAnswer['body'] };
}

/** Runs an AI query and returns `data`, failing loudly on errors. */
export async function aiData<T = Record<string, unknown[]>>(
	sandbox: Sandbox,
	token: string,
	query: string,
	variables?: Record<string, unknown>,
): Promise<T> {
	const answer = await postGraphql(sandbox.ai.graphqlUrl, token, query, variables);
	if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
	return answer.body.data as T;
}
