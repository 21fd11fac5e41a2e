import { clearAccessTokenCache } from '../../../credentials/common/accessToken';
import { everythingOf } from '../../../dev/harness/execute';
import type { NodeRunResult } from '../../../dev/harness/execute';
import { aiCredentials, orgCredentials } from '../../../dev/harness/sandboxCredentials';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import { runAi } from '../ArchiveAiMetadata/helpers';
import { runOrganizationNode } from '../ArchiveOrganization/helpers';

// The messages a no-code user meets when something is wrong, pinned word for word: each says what went wrong, which
// field or parameter to change and what a valid value looks like, with the service's own words where it gave any.
const sandbox = useSandbox({ rows: 20 });
beforeEach(() => {
	clearAccessTokenCache();
	sandbox().faults.set('ai', {});
});

const LIST = { resource: 'speechTask', operation: 'getAll', limit: 2, options: { maxRetries: 0 } };
const shown = (result: NodeRunResult) => ({
	message: result.error?.message,
	description: result.error?.description,
});

describe('credential and connection messages', () => {
	it('a wrong password names the credential fields and gives the server its word, never the password', async () => {
		const password = 'Wrong-Password-4711';
		const result = await runAi(sandbox(), LIST, {
			credentials: aiCredentials(sandbox(), { password }),
		});
		expect(result.error?.message).toBe(
			'AI Metadata API: the token endpoint refused the credential\'s "E-Mail" and "Password" (HTTP 401): Invalid client credentials. Check both, for the environment the "Token URL" points to.',
		);
		expect(everythingOf(result)).not.toContain(password);
	});

	it('the Organization credential names its own account field', async () => {
		const result = await runOrganizationNode(
			sandbox(),
			{ resource: 'contentPartner', operation: 'getAll', limit: 1 },
			{ credentials: orgCredentials(sandbox(), { username: 'nobody' }) },
		);
		expect(result.error?.message).toMatch(
			/^Organization API: the token endpoint refused the credential's "Username" and "Password" \(HTTP 401\)/,
		);
	});

	it('an empty account field is named before any request', async () => {
		const result = await runAi(sandbox(), LIST, {
			credentials: aiCredentials(sandbox(), { email: '' }),
		});
		expect(result.error?.message).toBe('AI Metadata API credential: "E-Mail" is empty');
		expect(sandbox().counters.get().ai.tokensIssued).toBe(0);
	});

	it('a Token URL that is not a token endpoint says what the Token URL is', async () => {
		const authUrl = sandbox().ai.graphqlUrl;
		const result = await runAi(sandbox(), LIST, {
			credentials: aiCredentials(sandbox(), { authUrl }),
		});
		expect(result.error?.message).toBe(
			`AI Metadata API: ${authUrl}/token is not a token endpoint (HTTP 404). Set the "Token URL" to the token service's base address, without /token, e.g. https://auth.example.org.`,
		);
	});

	it('a token service that cannot be reached names the Token URL', async () => {
		const result = await runAi(sandbox(), LIST, {
			credentials: aiCredentials(sandbox(), { authUrl: 'http://127.0.0.1:9' }),
		});
		expect(result.error?.message).toBe(
			'AI Metadata API: could not reach the token endpoint http://127.0.0.1:9/token (connection refused). Check the "Token URL".',
		);
	});

	it('an API that cannot be reached says so, not that introspection was refused', async () => {
		const result = await runAi(sandbox(), LIST, {
			credentials: aiCredentials(sandbox(), { graphqlUrl: 'http://127.0.0.1:9/v1/graphql' }),
		});
		expect(shown(result)).toEqual({
			message: 'AI Metadata API: the request failed (connection refused)',
			description:
				"Check the credential's endpoint URL, or try again later if the service is down.",
		});
	});

	it('an endpoint that answers a web page says to check the endpoint URL', async () => {
		sandbox().faults.set('ai', { html: true });
		const result = await runAi(sandbox(), LIST);
		expect(shown(result)).toEqual({
			message: 'AI Metadata API: the endpoint answered a web page, not GraphQL',
			description:
				"Check the credential's endpoint URL: it must be the API's GraphQL address, not a web page or login page.",
		});
	});

	it("rate limited: the server's words, and what to lower", async () => {
		sandbox().faults.set('ai', { status429: { every: 1, retryAfter: 0 } });
		const result = await runAi(sandbox(), LIST);
		expect(shown(result)).toEqual({
			message: 'AI Metadata API: too many requests (HTTP 429)',
			description:
				'The server said: Rate limit exceeded. The service limits requests: lower Max Concurrent Requests in the options, or run the workflow less often.',
		});
	});

	it("the service failing: the server's words, and when to try again", async () => {
		sandbox().faults.set('ai', { status5xx: { every: 1, code: 503 } });
		const result = await runAi(sandbox(), LIST);
		expect(shown(result)).toEqual({
			message: 'AI Metadata API: the server failed (HTTP 503)',
			description:
				'The server said: Injected 503. Try again later; Max Retries in the options sets how often each request is retried first.',
		});
	});
});

describe('filter values', () => {
	it('a date that is not a date names the filter before any request', async () => {
		const result = await runAi(sandbox(), { ...LIST, filters: { timeFrom: 'yesterday' } });
		expect(result.error?.message).toBe(
			'Parameter "Time From": is not an ISO 8601 date and time such as 2025-06-01T08:00:00Z: "yesterday"',
		);
	});

	it('a value of the wrong type that only the server can judge names the filter and the place', async () => {
		const result = await runAi(sandbox(), {
			...LIST,
			filters: { where: '{"processed_time": {"_gte": "yesterday"}}' },
		});
		expect(shown(result)).toEqual({
			message:
				'Parameter "Advanced Filter (JSON)": processed_time._gte is "yesterday", which is not an ISO 8601 date and time such as 2025-06-01T08:00:00Z',
			description: 'The API answered with error code "unexpected".',
		});
	});

	it('a number written as text names the place', async () => {
		const result = await runAi(sandbox(), {
			...LIST,
			resource: 'faceTask',
			filters: { where: '{"n_faces": {"_gte": "many"}}' },
		});
		expect(result.error?.message).toBe(
			'Parameter "Advanced Filter (JSON)": n_faces._gte is "many", which is not a whole number',
		);
	});

	it('a column the view does not have', async () => {
		const result = await runAi(sandbox(), {
			...LIST,
			filters: { where: '{"n_faces": {"_gte": 3}}' },
		});
		expect(result.error?.message).toBe(
			'Parameter "Advanced Filter (JSON)": "n_faces" is neither a column of this view nor an operator such as _eq or _gte',
		);
	});
});
