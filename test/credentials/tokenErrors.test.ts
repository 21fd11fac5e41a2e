import { clearAccessTokenCache } from '../../credentials/common/accessToken';
import { startSandbox } from '../../dev/emulators';
import type { Sandbox } from '../../dev/emulators';
import { runNode } from '../../dev/harness/execute';
import { graphqlProbe } from '../../dev/harness/graphqlProbe';
import { AI_METADATA_SERVICE } from '../../nodes/ArchiveAiMetadata/api/client';
import { aiCredentials } from '../../dev/harness/sandboxCredentials';
import { startTestOrigin } from '../../dev/harness/testOrigin';
import type { TestOrigin } from '../../dev/harness/testOrigin';

const aiProbe = graphqlProbe(AI_METADATA_SERVICE);
const QUERY = 'query Probe { face_tasks(limit: 1) { task_id } }';

let sandbox: Sandbox;
/** A token endpoint that answers 400 and echoes the request's Authorization header, as a careless server might. */
let echoing: TestOrigin;

beforeAll(async () => {
	sandbox = await startSandbox({ rows: 10 });
	echoing = await startTestOrigin((request, res) => {
		res.writeHead(400, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				error: 'invalid_request',
				error_description: `bad request with Authorization: ${request.headers.authorization}; previous access_token=eyJhbGciOi.secret-token and "access_token": "tok-2", Bearer abc.def.ghi`,
			}),
		);
	});
});
afterAll(async () => Promise.all([sandbox.close(), echoing.close()]));
beforeEach(() => clearAccessTokenCache());

function everything(result: Awaited<ReturnType<typeof runNode>>): string {
	return JSON.stringify({
		error: result.error,
		message: result.error?.message,
		description: result.error?.description,
	});
}

describe('token errors keep credentials out', () => {
	it('redacts Basic, Bearer and access_token values the server echoes', async () => {
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: QUERY, maxRetries: 0 },
			credentials: aiCredentials(sandbox, { authUrl: echoing.baseUrl }),
		});
		const basic = Buffer.from(`${sandbox.ai.email}:${sandbox.ai.password}`).toString('base64');
		expect(echoing.requests[0].headers.authorization).toBe(`Basic ${basic}`);
		expect(result.error?.message).toContain(
			`the token endpoint ${echoing.baseUrl}/token answered HTTP 400: bad request with Authorization: Basic [redacted]`,
		);
		expect(result.error?.message).toContain('access_token=[redacted]');
		expect(result.error?.message).toContain('"access_token": "[redacted]"');
		expect(result.error?.message).toContain('Bearer [redacted]');
		const text = everything(result);
		for (const secret of [
			basic,
			sandbox.ai.password,
			'eyJhbGciOi.secret-token',
			'tok-2',
			'abc.def.ghi',
		])
			expect(text).not.toContain(secret);
	});

	it.each([
		[
			'an endpoint that answers',
			() => echoing.baseUrl.replace('http://', 'http://someone:url-secret@'),
		],
		['an unreachable endpoint', () => 'http://someone:url-secret@127.0.0.1:9'],
		['a URL that is not http', () => 'ftp://someone:url-secret@auth.example.org'],
	])('strips user:password@ from the Token URL in the message (%s)', async (_case, authUrl) => {
		const result = await runNode({
			nodeType: aiProbe,
			parameters: { query: QUERY, maxRetries: 0 },
			credentials: aiCredentials(sandbox, { authUrl: authUrl() }),
		});
		expect(result.error?.message).toMatch(
			/token endpoint http:\/\/…@127\.0\.0\.1:\d+\/token|"Token URL" must be an http\(s\) URL, got "ftp:\/\/…@auth\.example\.org"/,
		);
		expect(everything(result)).not.toContain('url-secret');
		expect(everything(result)).not.toContain('someone:');
	});
});

describe('API errors keep the token out', () => {
	it('redacts a Bearer token that a failing endpoint echoes in its error text', async () => {
		const failing = await startTestOrigin((request, res) => {
			res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`upstream failed for Authorization: ${request.headers.authorization}`);
		});
		try {
			const credentials = aiCredentials(sandbox, { graphqlUrl: `${failing.baseUrl}/v1/graphql` });
			const result = await runNode({
				nodeType: aiProbe,
				parameters: { query: QUERY, maxRetries: 0 },
				credentials,
			});
			const token = String(credentials.store.get('archiveAiMetadataApi')?.accessToken);
			expect(failing.requests[0].headers.authorization).toBe(`Bearer ${token}`);
			expect(result.error?.description).toBe(
				'The server said: upstream failed for Authorization: Bearer [redacted]. Try again later; Max Retries in the options sets how often each request is retried first.',
			);
			expect(everything(result)).not.toContain(token);
		} finally {
			await failing.close();
		}
	});
});
