import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

import { useSandbox } from '../../../dev/harness/sandboxFixture';
import { KEYS_PER_REQUEST } from '../../../nodes/ArchiveOrganization/actions/batchedGet';
import { jsonOf, orgCredentials, pick, requestCounts, runOrganizationNode } from './helpers';

/**
 * Get for many input items: distinct keys go out in aliased batches, each item gets exactly its own rows back.
 * Counts are of the emulator's GraphQL endpoint; the first request of every run is the schema's introspection.
 */

const sandbox = useSandbox({ rows: 200 });

const INTROSPECTION = 1;
const FIELDS = ['id', 'iri', 'label'];

const partners = () => sandbox().data.org.contentPartners;

/** Get content partner by `$json.key` (id or iri, the Auto mode of an expression), selected fields. */
function getPartner(extra: Record<string, unknown> = {}) {
	return {
		resource: 'contentPartner',
		operation: 'get',
		contentPartner: { __rl: true, mode: 'id', value: '={{ $json.key }}' },
		output: 'selected',
		fields: FIELDS,
		...extra,
	};
}

describe('Get batches the distinct keys of all items', () => {
	it('sends one request per 50 distinct keys, and each item gets exactly its own row, paired with it', async () => {
		const distinct = partners().slice(0, KEYS_PER_REQUEST + 10);
		// 180 items, every partner asked for three times, in an order that is not the partners' order.
		const asked = [...distinct, ...[...distinct].reverse(), ...distinct];
		const result = await runOrganizationNode(sandbox(), getPartner(), {
			input: asked.map((partner) => ({ key: partner.id })),
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual(
			asked.map((partner, index) => ({ json: pick(partner, FIELDS), pairedItem: { item: index } })),
		);
		expect(requestCounts(sandbox()).graphql).toBe(INTROSPECTION + 2);
	});

	it('asks once for a key given by id and once for the same partner by iri, both answered', async () => {
		const [first, second] = partners();
		const result = await runOrganizationNode(
			sandbox(),
			getPartner({ contentPartner: { __rl: true, mode: 'auto', value: '={{ $json.key }}' } }),
			{ input: [{ key: first.iri }, { key: second.id }, { key: first.id }, { key: first.iri }] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([first, second, first, first].map((p) => pick(p, FIELDS)));
		expect(requestCounts(sandbox()).graphql).toBe(INTROSPECTION + 1);
	});

	it('groups items with different output settings separately, each with its own fields', async () => {
		const [first, second] = partners();
		const result = await runOrganizationNode(
			sandbox(),
			getPartner({ fields: '={{ $json.fields }}' }),
			{
				input: [
					{ key: first.id, fields: 'id' },
					{ key: second.id, fields: 'id,label' },
					{ key: second.id, fields: 'id' },
					{ key: first.id, fields: 'id,label' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{ json: { id: first.id }, pairedItem: { item: 0 } },
			{ json: { id: second.id, label: second.label }, pairedItem: { item: 1 } },
			{ json: { id: second.id }, pairedItem: { item: 2 } },
			{ json: { id: first.id, label: first.label }, pairedItem: { item: 3 } },
		]);
		expect(requestCounts(sandbox()).graphql).toBe(INTROSPECTION + 2);
	});

	it('honours Max Concurrent Requests: at most that many batches in flight, each one aliased document', async () => {
		const distinct = partners().slice(0, KEYS_PER_REQUEST * 4);
		sandbox().faults.set('org', { slowMs: 50 });
		const gauge = await startConcurrencyGauge(sandbox().org.baseUrl);
		try {
			const credentials = orgCredentials(sandbox(), { apiUrl: `${gauge.baseUrl}/organisation_v2` });
			const result = await runOrganizationNode(
				sandbox(),
				getPartner({ options: { maxConcurrency: 3 } }),
				{ credentials, input: distinct.map((partner) => ({ key: partner.id })) },
			);
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual(distinct.map((partner) => pick(partner, FIELDS)));
			const batches = gauge.bodies.filter((body) => !body.query.includes('__schema'));
			expect(batches).toHaveLength(4);
			expect(gauge.maxInFlight).toBe(3);
			for (const batch of batches) {
				expect(Object.keys(batch.variables)).toHaveLength(KEYS_PER_REQUEST);
				expect(batch.query).toContain('k49: contentpartners(id: $k49, offset: 0)');
			}
		} finally {
			await gauge.close();
		}
	});
});

describe('not found, per item', () => {
	const unknownIri = 'https://data.archive.test/id/organization/OR-doesnotexist';

	it('with When Not Found "Output No Item" (the default), only the found items give rows', async () => {
		const [first, second] = partners();
		const result = await runOrganizationNode(
			sandbox(),
			getPartner({
				contentPartner: { __rl: true, mode: 'auto', value: '={{ $json.key }}' },
				options: { whenNotFound: 'noItem' },
			}),
			{
				input: [{ key: first.id }, { key: 'OR-missing' }, { key: unknownIri }, { key: second.iri }],
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{ json: pick(first, FIELDS), pairedItem: { item: 0 } },
			{ json: pick(second, FIELDS), pairedItem: { item: 3 } },
		]);
		expect(requestCounts(sandbox()).graphql).toBe(INTROSPECTION + 1);
	});

	it('with "Stop With an Error" and Continue On Fail, each missing item becomes its own error item', async () => {
		const [first] = partners();
		const result = await runOrganizationNode(
			sandbox(),
			getPartner({
				contentPartner: { __rl: true, mode: 'auto', value: '={{ $json.key }}' },
				options: { whenNotFound: 'error' },
			}),
			{
				input: [{ key: unknownIri }, { key: first.id }, { key: 'OR-missing' }],
				settings: { continueOnFail: true },
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toEqual([
			{
				json: expect.objectContaining({
					error: `No content partner with iri "${unknownIri}" was found`,
				}),
				pairedItem: { item: 0 },
			},
			{ json: pick(first, FIELDS), pairedItem: { item: 1 } },
			{
				json: expect.objectContaining({
					error: 'No content partner with id "OR-missing" was found',
				}),
				pairedItem: { item: 2 },
			},
		]);
	});

	it('with "Stop With an Error" and without Continue On Fail, the first missing item in input order fails the node', async () => {
		const [first] = partners();
		const result = await runOrganizationNode(
			sandbox(),
			getPartner({ options: { whenNotFound: 'error' } }),
			{
				input: [{ key: first.id }, { key: 'OR-second' }, { key: 'OR-third' }],
			},
		);
		expect(result.error?.message).toBe('No content partner with id "OR-second" was found');
		expect(result.error?.context?.itemIndex).toBe(1);
	});
});

describe('errors reach only the items they belong to', () => {
	it('a resolver failure of one alias (HTTP 200, that alias null) fails only the items that asked for its key', async () => {
		const [first, failing, third] = partners();
		sandbox().faults.set('org', { failKeys: { keys: [failing.id], message: 'SPARQL timeout' } });
		const result = await runOrganizationNode(sandbox(), getPartner(), {
			input: [first, failing, third, failing, first].map((partner) => ({ key: partner.id })),
			settings: { continueOnFail: true },
		});
		expect(result.error).toBeUndefined();
		const failed = {
			json: expect.objectContaining({
				error: 'Organization API: SPARQL timeout',
				httpCode: 'INTERNAL_SERVER_ERROR',
			}),
		};
		expect(result.outputs[0]).toEqual([
			{ json: pick(first, FIELDS), pairedItem: { item: 0 } },
			{ ...failed, pairedItem: { item: 1 } },
			{ json: pick(third, FIELDS), pairedItem: { item: 2 } },
			{ ...failed, pairedItem: { item: 3 } },
			{ json: pick(first, FIELDS), pairedItem: { item: 4 } },
		]);
		expect(requestCounts(sandbox()).graphql).toBe(INTROSPECTION + 1);
	});

	it('without Continue On Fail, that error is a NodeApiError naming the first item that asked for the key', async () => {
		const [first, failing] = partners();
		sandbox().faults.set('org', { failKeys: { keys: [failing.id], message: 'SPARQL timeout' } });
		const result = await runOrganizationNode(sandbox(), getPartner(), {
			input: [first, failing, failing].map((partner) => ({ key: partner.id })),
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Organization API: SPARQL timeout');
		expect(result.error?.description).toMatch(/at k1\./);
		expect(result.error?.context?.itemIndex).toBe(1);
	});

	it('a failed request fails every item of its batch, and only those', async () => {
		const distinct = partners().slice(0, KEYS_PER_REQUEST + 5);
		// Request 1 is the introspection, request 2 (the first batch) fails, request 3 (the second) passes.
		sandbox().faults.set('org', { status5xx: { every: 2, code: 500 } });
		const result = await runOrganizationNode(
			sandbox(),
			getPartner({ options: { maxRetries: 0, maxConcurrency: 1 } }),
			{
				input: distinct.map((partner) => ({ key: partner.id })),
				settings: { continueOnFail: true },
			},
		);
		expect(result.error).toBeUndefined();
		const output = result.outputs[0];
		expect(output).toHaveLength(distinct.length);
		output.slice(0, KEYS_PER_REQUEST).forEach((item, index) => {
			expect(item).toEqual({
				json: expect.objectContaining({
					error: 'Organization API: the server failed (HTTP 500)',
					httpCode: '500',
				}),
				pairedItem: { item: index },
			});
		});
		expect(output.slice(KEYS_PER_REQUEST)).toEqual(
			distinct.slice(KEYS_PER_REQUEST).map((partner, index) => ({
				json: pick(partner, FIELDS),
				pairedItem: { item: KEYS_PER_REQUEST + index },
			})),
		);
	});
});

describe('parameter errors still fire before any request', () => {
	it('a bad ID in the first item fails the node before a token or a query is asked for', async () => {
		const result = await runOrganizationNode(sandbox(), getPartner(), {
			input: [{ key: 'not an id' }, { key: partners()[0].id }],
		});
		expect(result.error?.message).toMatch(/^Parameter "Content Partner": is not a valid ID/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(requestCounts(sandbox())).toEqual({ graphql: 0, token: 0 });
	});

	it('with Continue On Fail, the bad item is an error item naming the parameter, the others are served', async () => {
		const [first, second] = partners();
		const result = await runOrganizationNode(sandbox(), getPartner(), {
			input: [{ key: first.id }, { key: 'not an id' }, { key: second.id }],
			settings: { continueOnFail: true },
		});
		expect(result.outputs[0]).toEqual([
			{ json: pick(first, FIELDS), pairedItem: { item: 0 } },
			{
				json: expect.objectContaining({
					error: expect.stringMatching(/^Parameter "Content Partner": is not a valid ID/),
				}),
				pairedItem: { item: 1 },
			},
			{ json: pick(second, FIELDS), pairedItem: { item: 2 } },
		]);
	});
});

/** A loopback proxy to the emulator that notes each GraphQL body and the most requests it had open at once. */
async function startConcurrencyGauge(targetBaseUrl: string) {
	const target = new URL(targetBaseUrl);
	const gauge = {
		baseUrl: '',
		maxInFlight: 0,
		bodies: [] as Array<{ query: string; variables: Record<string, unknown> }>,
		close: async () => {},
	};
	let inFlight = 0;
	const server = createServer((req, res) => {
		inFlight++;
		gauge.maxInFlight = Math.max(gauge.maxInFlight, inFlight);
		res.on('close', () => inFlight--);
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			if (req.url?.startsWith('/organisation_v2'))
				gauge.bodies.push(JSON.parse(body.toString()) as (typeof gauge.bodies)[number]);
			const upstream = httpRequest(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: req.headers,
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			upstream.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	gauge.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	gauge.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return gauge;
}
