import { buildSchema, introspectionFromSchema } from 'graphql';
import type { INode } from 'n8n-workflow';

import type { GraphqlClient, RequestContext } from '../../../../nodes/shared/graphql/client';
import { clearSchemaCache, loadSchema } from '../../../../nodes/shared/graphql/schemaCache';

// The cache's bookkeeping, without a server: clients that answer the introspection query when the test says so.

const ctx = {
	getNode: () =>
		({ name: 'Node', credentials: { someApi: { id: 'cred-1', name: 'c' } } }) as unknown as INode,
} as unknown as RequestContext;

function client(answer: () => Promise<unknown>) {
	const calls = { count: 0 };
	const fake = {
		endpoint: 'https://api.example.org/graphql',
		request: async () => {
			calls.count++;
			return await answer();
		},
	} as unknown as GraphqlClient;
	return { fake, calls };
}

const INTROSPECTION = introspectionFromSchema(buildSchema('type Query { a: Int }'));

beforeEach(() => clearSchemaCache());

describe('loadSchema', () => {
	it('asks once per credential and endpoint', async () => {
		const { fake, calls } = client(async () => INTROSPECTION);
		await loadSchema(ctx, fake, 'someApi');
		await loadSchema(ctx, fake, 'someApi');
		expect(calls.count).toBe(1);
	});

	it('does not keep a failed introspection', async () => {
		const failing = client(async () => {
			throw new Error('refused');
		});
		await expect(loadSchema(ctx, failing.fake, 'someApi')).rejects.toThrow('refused');
		const { fake, calls } = client(async () => INTROSPECTION);
		await loadSchema(ctx, fake, 'someApi');
		expect(calls.count).toBe(1);
	});

	it('a late failure does not drop the schema a newer attempt cached meanwhile', async () => {
		let fail: (error: Error) => void = () => undefined;
		const slow = client(async () => await new Promise((_resolve, reject) => (fail = reject)));
		const first = loadSchema(ctx, slow.fake, 'someApi');
		// The first attempt's entry expires or is evicted while it is still waiting: a newer attempt succeeds.
		clearSchemaCache();
		const fresh = client(async () => INTROSPECTION);
		await loadSchema(ctx, fresh.fake, 'someApi');
		fail(new Error('timed out'));
		await expect(first).rejects.toThrow('timed out');

		const later = client(async () => INTROSPECTION);
		await loadSchema(ctx, later.fake, 'someApi');
		expect(later.calls.count).toBe(0);
	});
});
