import { buildSchema, introspectionFromSchema } from 'graphql';
import type { INodeParameters } from 'n8n-workflow';

import { loadSchema } from '../../../nodes/shared/graphql/schemaCache';
import type { GraphqlClient, RequestContext } from '../../../nodes/shared/graphql/client';
import { ORG_SDL } from '../../../dev/emulators/org/schema';
import type { NodeRunResult } from '../../../dev/harness/execute';
import { useSandbox } from '../../../dev/harness/sandboxFixture';
import {
	CREDENTIAL_TYPE,
	jsonOf,
	orgCredentials,
	requestCounts,
	runOrganizationNode,
} from './helpers';

const sandbox = useSandbox({ rows: 200 });

const LIST_PARTNERS: INodeParameters = {
	resource: 'contentPartner',
	operation: 'getAll',
	limit: 3,
};

/** Everything a user or log could see of a failed run. */
function visibleText(result: NodeRunResult): string {
	const error = result.error;
	return JSON.stringify({
		message: error?.message,
		description: error?.description,
		context: error?.context,
		error,
		outputs: result.outputs,
	});
}

function expectNoSecrets(result: NodeRunResult, ...secrets: string[]): void {
	const text = visibleText(result);
	for (const secret of [
		'demo-password',
		Buffer.from('demo:demo-password').toString('base64'),
		...secrets,
	]) {
		expect(text).not.toContain(secret);
	}
}

describe('bad input fails before any request', () => {
	it.each([
		[
			'a limit of 0',
			{ ...LIST_PARTNERS, limit: 0 },
			'Parameter \"Limit\": must be a whole number from 1 to 2147483647, got 0',
		],
		[
			'a page size above the cap',
			{ ...LIST_PARTNERS, options: { pageSize: 600 } },
			'Parameter \"Page Size\": must be a whole number from 1 to 500, got 600',
		],
		[
			'no concurrency',
			{ ...LIST_PARTNERS, options: { maxConcurrency: 0 } },
			'Parameter \"Max Concurrent Requests\": must be a whole number from 1 to 16, got 0',
		],
		[
			'a fractional retry count',
			{ ...LIST_PARTNERS, options: { maxRetries: 1.5 } },
			'Parameter \"Max Retries\": must be a whole number from 0 to 10, got 1.5',
		],
		[
			'an unknown method',
			{ ...LIST_PARTNERS, options: { requestMethod: 'PUT' } },
			'Parameter \"Request Method\": must be POST or GET, got "PUT"',
		],
		// n8n itself refuses an empty required field typed in; an expression can still resolve to nothing.
		[
			'an empty id',
			{
				resource: 'school',
				operation: 'get',
				school: { __rl: true, mode: 'id', value: '={{ "  " }}' },
			},
			'Parameter \"School\": is empty: pick the school from the list, or give its ID or IRI',
		],
		[
			'an empty iri',
			{
				resource: 'person',
				operation: 'get',
				person: { __rl: true, mode: 'url', value: '={{ $json.missing }}' },
			},
			'Parameter \"Person\": is empty: pick the person from the list, or give its IRI',
		],
		[
			'no custom fields',
			{ ...LIST_PARTNERS, output: 'selected', fields: '={{ [] }}' },
			'Parameter "Field Names or IDs": is empty: choose at least one field, or choose Simplified or Raw in "Output"',
		],
		[
			'a malformed field path',
			{ ...LIST_PARTNERS, output: 'selected', fields: ['label', 'label } __schema { types'] },
			'Parameter "Field Names or IDs": holds "label } __schema { types", which is not a field path',
		],
		[
			'a non-text filter',
			{ resource: 'organization', operation: 'getAll', filters: { label: 5 } },
			'Parameter "Label Contains": must be text, got 5',
		],
	])('%s', async (_case, parameters, message) => {
		const result = await runOrganizationNode(sandbox(), parameters);
		expect(result.error?.message).toBe(message);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(requestCounts(sandbox())).toEqual({ graphql: 0, token: 0 });
	});
});

describe('input checked against the live schema fails before the data request', () => {
	it('names unknown custom fields', async () => {
		const result = await runOrganizationNode(sandbox(), {
			...LIST_PARTNERS,
			output: 'selected',
			fields: 'label, primary_site.address.city, nickname',
		});
		expect(result.error?.message).toBe(
			'"Fields" names "primary_site.address.city", "nickname", unknown on ContentPartner in the live schema',
		);
		// Only the introspection query went out.
		expect(requestCounts(sandbox()).graphql).toBe(1);
	});

	it('refuses an enum filter value the server does not declare and lists the known ones', async () => {
		const result = await runOrganizationNode(sandbox(), {
			resource: 'organization',
			operation: 'getAll',
			filters: { type: 'Museum' },
		});
		expect(result.error?.message).toBe(
			'Parameter "Type Name or ID": is "Museum", which the server does not know',
		);
		expect(result.error?.description).toContain('ContentPartner, ServiceProvider');
		expect(requestCounts(sandbox()).graphql).toBe(1);
	});
});

describe('API errors', () => {
	it('reports a GraphQL validation error (HTTP 400) when the cached schema is stale', async () => {
		// The node validated against a schema read earlier (cached for ten minutes) that still had a field the server
		// has since dropped: the server's own validation error must come through with its code.
		const earlierSchema = buildSchema(
			ORG_SDL.replace(
				'type ContentPartner implements IOrganization {',
				'type ContentPartner implements IOrganization {\n\tfounded: String',
			),
		);
		const ctx = {
			getNode: () => ({ credentials: { [CREDENTIAL_TYPE]: { id: `${CREDENTIAL_TYPE}-id` } } }),
		};
		const client = {
			endpoint: sandbox().org.apiUrl,
			request: async () => introspectionFromSchema(earlierSchema),
		};
		await loadSchema(
			ctx as unknown as RequestContext,
			client as unknown as GraphqlClient,
			CREDENTIAL_TYPE,
		);

		const result = await runOrganizationNode(sandbox(), {
			...LIST_PARTNERS,
			output: 'selected',
			fields: ['label', 'founded'],
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Organization API: Cannot query field "founded" on type "ContentPartner".',
		);
		expect(result.error?.description).toContain('error code "GRAPHQL_VALIDATION_FAILED"');
		expect(result.error?.httpCode).toBe('400');
		expect(sandbox().counters.get().org.statuses['400']).toBe(1);
	});

	it('reports a resolver failure (HTTP 200, data null, INTERNAL_SERVER_ERROR) instead of an empty result', async () => {
		sandbox().faults.set('org', { sparqlDown: true });
		const result = await runOrganizationNode(sandbox(), LIST_PARTNERS);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Organization API: Unable to query SPARQL service');
		expect(result.error?.description).toBe(
			'The API answered with error code "INTERNAL_SERVER_ERROR", at contentpartners.',
		);
		expect(result.outputs).toEqual([]);
	});

	it('fetches a new token once after a 401 and completes', async () => {
		const credentials = orgCredentials(sandbox());
		const first = await runOrganizationNode(sandbox(), LIST_PARTNERS, { credentials });
		expect(first.error).toBeUndefined();
		const firstToken = credentials.store.get(CREDENTIAL_TYPE)?.accessToken;
		sandbox().revokeTokens();
		const second = await runOrganizationNode(sandbox(), LIST_PARTNERS, { credentials });
		expect(second.error).toBeUndefined();
		expect(jsonOf(second)).toEqual(jsonOf(first));
		const counters = sandbox().counters.get().org;
		expect(counters.requests.token).toBe(2);
		// The shared transport's first attempt reads the status itself; its strict re-send lets n8n refresh once.
		expect(counters.statuses['401']).toBeGreaterThanOrEqual(1);
		expect(counters.statuses['401']).toBeLessThanOrEqual(2);
		expect(credentials.store.get(CREDENTIAL_TYPE)?.accessToken).not.toBe(firstToken);
		expect(credentials.preAuthenticationCalls.map((call) => call.expired)).toEqual([false, true]);
	});

	it('waits and retries after HTTP 429 with Retry-After', async () => {
		sandbox().faults.set('org', { status429: { every: 2, retryAfter: 1 } });
		const result = await runOrganizationNode(sandbox(), {
			resource: 'school',
			operation: 'get',
			school: { __rl: true, mode: 'id', value: sandbox().data.org.schools[0].id },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(1);
		expect(sandbox().counters.get().org.faults['graphql.status429']).toBe(1);
		expect(requestCounts(sandbox()).graphql).toBe(3);
	});

	it('gives up on HTTP 429 when retries are switched off', async () => {
		sandbox().faults.set('org', { status429: { retryAfter: 1 } });
		const result = await runOrganizationNode(sandbox(), {
			...LIST_PARTNERS,
			options: { maxRetries: 0 },
		});
		expect(result.error?.message).toBe('Organization API: too many requests (HTTP 429)');
		expect(result.error?.httpCode).toBe('429');
		expect(requestCounts(sandbox()).graphql).toBe(1);
	});

	it('stops after the configured retries when the server keeps failing (5xx)', async () => {
		sandbox().faults.set('org', { status5xx: { code: 503 } });
		const result = await runOrganizationNode(sandbox(), {
			...LIST_PARTNERS,
			options: { maxRetries: 2 },
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Organization API: the server failed (HTTP 503) after 2 retries',
		);
		expect(requestCounts(sandbox()).graphql).toBe(3);
	});

	it('retries a dropped connection', async () => {
		sandbox().faults.set('org', { dropConnection: { every: 2 } });
		const result = await runOrganizationNode(sandbox(), LIST_PARTNERS);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(3);
		expect(sandbox().counters.get().org.faults['graphql.dropConnection']).toBeGreaterThan(0);
	});
});

describe('token endpoint errors, without secrets', () => {
	it('explains refused credentials and sends no query', async () => {
		const result = await runOrganizationNode(sandbox(), LIST_PARTNERS, {
			credentials: orgCredentials(sandbox(), { password: 'wrong-password' }),
		});
		expect(result.error?.message).toBe(
			'Organization API: the token endpoint refused the credential\'s "Username" and "Password" (HTTP 401): Invalid client credentials. Check both, for the environment the "Token URL" points to.',
		);
		expect(requestCounts(sandbox()).graphql).toBe(0);
		expectNoSecrets(
			result,
			'wrong-password',
			Buffer.from('demo:wrong-password').toString('base64'),
		);
	});

	it('explains a token endpoint that answers an HTML page', async () => {
		sandbox().faults.set('orgAuth', { html: true });
		const result = await runOrganizationNode(sandbox(), LIST_PARTNERS);
		expect(result.error?.message).toMatch(/did not answer JSON \(it sent an HTML page/);
		expect(requestCounts(sandbox()).graphql).toBe(0);
		expectNoSecrets(result);
	});

	it('retries a failing token endpoint, then explains it', async () => {
		sandbox().faults.set('orgAuth', { status5xx: { code: 502 } });
		const result = await runOrganizationNode(sandbox(), {
			...LIST_PARTNERS,
			options: { maxRetries: 1 },
		});
		expect(result.error?.message).toMatch(
			/the token endpoint .*\/auth\/token answered HTTP 502.* after 1 retry$/,
		);
		expect(requestCounts(sandbox())).toEqual({ graphql: 0, token: 2 });
	});

	it('never puts the token into output items or errors', async () => {
		// jwtauth puts the token into the URL, the place it would most easily leak into an error from.
		const credentials = orgCredentials(sandbox(), { jwtPlacement: 'query' });
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'contentPartner',
				operation: 'get',
				contentPartner: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				options: { requestMethod: 'GET', whenNotFound: 'error' },
			},
			{
				credentials,
				input: [{ id: 'OR-none' }, { id: sandbox().data.org.contentPartners[0].id }],
				settings: { continueOnFail: true },
			},
		);
		expect(jsonOf(result).map((row) => row.error ?? row.id)).toEqual([
			'No content partner with id "OR-none" was found',
			sandbox().data.org.contentPartners[0].id,
		]);
		const token = String(credentials.store.get(CREDENTIAL_TYPE)?.accessToken ?? '');
		expect(token).not.toBe('');
		expectNoSecrets(result, token);
	});
	it('keeps a jwtauth token out of API errors', async () => {
		const credentials = orgCredentials(sandbox(), { jwtPlacement: 'query' });
		sandbox().faults.set('org', { status5xx: { every: 2, code: 500 } });
		// Introspection passes, the data request fails for good (no retries): the failing URL carried the token.
		const result = await runOrganizationNode(
			sandbox(),
			{ ...LIST_PARTNERS, options: { requestMethod: 'GET', maxRetries: 0 } },
			{ credentials },
		);
		expect(result.error?.message).toBe('Organization API: the server failed (HTTP 500)');
		const token = String(credentials.store.get(CREDENTIAL_TYPE)?.accessToken ?? '');
		expect(token).not.toBe('');
		expectNoSecrets(result, token);
	});
});

describe('continue on fail and pairedItem', () => {
	it('turns a bad item into an error item and still serves the others', async () => {
		const partners = sandbox().data.org.contentPartners;
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'contentPartner',
				operation: 'getAll',
				limit: '={{ $json.limit }}',
				output: 'selected',
				fields: ['id'],
			},
			{ input: [{ limit: 2 }, { limit: 0 }, { limit: 1 }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		const sorted = [...partners].sort((a, b) => (a.iri < b.iri ? -1 : 1));
		expect(result.outputs[0]).toEqual([
			{ json: { id: sorted[0].id }, pairedItem: { item: 0 } },
			{ json: { id: sorted[1].id }, pairedItem: { item: 0 } },
			{
				json: { error: 'Parameter \"Limit\": must be a whole number from 1 to 2147483647, got 0' },
				pairedItem: { item: 1 },
			},
			{ json: { id: sorted[0].id }, pairedItem: { item: 2 } },
		]);
	});

	it('without continue on fail, the error names the failing item', async () => {
		const result = await runOrganizationNode(
			sandbox(),
			{
				resource: 'contentPartner',
				operation: 'get',
				contentPartner: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				options: { whenNotFound: 'error' },
			},
			{ input: [{ id: sandbox().data.org.contentPartners[0].id }, { id: 'OR-none' }] },
		);
		expect(result.error?.message).toBe('No content partner with id "OR-none" was found');
		expect(result.error?.context?.itemIndex).toBe(1);
	});

	it('puts API errors into error items with their HTTP code', async () => {
		sandbox().faults.set('org', { status5xx: { code: 500 } });
		const result = await runOrganizationNode(
			sandbox(),
			{ ...LIST_PARTNERS, options: { maxRetries: 0 } },
			{ settings: { continueOnFail: true } },
		);
		expect(result.outputs[0]).toEqual([
			{
				json: expect.objectContaining({
					error: 'Organization API: the server failed (HTTP 500)',
					httpCode: '500',
				}),
				pairedItem: { item: 0 },
			},
		]);
	});
});
