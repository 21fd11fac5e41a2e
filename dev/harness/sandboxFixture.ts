import { clearAccessTokenCache } from '../../credentials/common/accessToken';
import { clearSchemaCache } from '../../nodes/shared/graphql/schemaCache';
import { startSandbox } from '../emulators';
import type { Sandbox, SandboxOptions } from '../emulators';

/**
 * One emulator sandbox for the test file that calls this at its top level: started before its tests, closed
 * after them, and each test starts without cached tokens or schemas, faults or counts. Returns a getter because
 * the sandbox only exists once the tests run.
 */
export function useSandbox(options: SandboxOptions): () => Sandbox {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox(options);
	});
	afterAll(async () => sandbox.close());
	beforeEach(() => {
		clearAccessTokenCache();
		clearSchemaCache();
		sandbox.faults.clear();
		sandbox.counters.reset();
	});
	return () => sandbox;
}
