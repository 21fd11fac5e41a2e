import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

// Node execution contexts start n8n-core's SSH tunnel manager, whose cleanup interval would keep jest alive.
afterAll(() => {
	Container.get(SSHClientsManager).onShutdown();
});
