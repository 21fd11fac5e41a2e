import type { Sandbox } from '../emulators';
import type { CredentialImport } from './n8n';
import type { CredentialRef } from './workflows';

/**
 * Our credentials for a sandbox's emulators, as `N8nInstance.importCredentials` takes them. `extra` adds or
 * overrides credential fields (e.g. the token lifetime).
 */

export function aiCredentialImport(
	ref: CredentialRef,
	sandbox: Pick<Sandbox, 'ai'>,
	extra: Record<string, unknown> = {},
): CredentialImport {
	const { authUrl, graphqlUrl, email, password } = sandbox.ai;
	return {
		...ref,
		type: 'archiveAiMetadataApi',
		// The emulators listen on loopback, so Download Files needs private addresses allowed.
		data: { authUrl, graphqlUrl, email, password, allowPrivateAddresses: true, ...extra },
	};
}

export function orgCredentialImport(
	ref: CredentialRef,
	sandbox: Pick<Sandbox, 'org'>,
	extra: Record<string, unknown> = {},
): CredentialImport {
	const { authUrl, apiUrl, username, password } = sandbox.org;
	return {
		...ref,
		type: 'archiveOrganizationApi',
		data: { authUrl, apiUrl, username, password, ...extra },
	};
}
