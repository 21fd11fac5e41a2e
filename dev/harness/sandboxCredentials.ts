import type { IDataObject } from 'n8n-workflow';

import { ArchiveAiMetadataApi } from '../../credentials/ArchiveAiMetadataApi.credentials';
import { ArchiveOrganizationApi } from '../../credentials/ArchiveOrganizationApi.credentials';
import type { Sandbox } from '../emulators';
import type { TestCredentialsHelper } from './credentialsHelper';
import { credentialsFor } from './execute';

/** Credentials of the AI Metadata API pointing at a sandbox; `overrides` replace single fields (a wrong password, ...). */
export function aiCredentials(
	sandbox: Sandbox,
	overrides: IDataObject = {},
): TestCredentialsHelper {
	const helper = credentialsFor([new ArchiveAiMetadataApi()]);
	helper.set('archiveAiMetadataApi', {
		authUrl: sandbox.ai.authUrl,
		graphqlUrl: sandbox.ai.graphqlUrl,
		email: sandbox.ai.email,
		password: sandbox.ai.password,
		// The emulators listen on loopback.
		allowPrivateAddresses: true,
		...overrides,
	});
	return helper;
}

/** Credentials of the Organization API pointing at a sandbox; `overrides` replace single fields. */
export function orgCredentials(
	sandbox: Sandbox,
	overrides: IDataObject = {},
): TestCredentialsHelper {
	const helper = credentialsFor([new ArchiveOrganizationApi()]);
	helper.set('archiveOrganizationApi', {
		authUrl: sandbox.org.authUrl,
		apiUrl: sandbox.org.apiUrl,
		username: sandbox.org.username,
		password: sandbox.org.password,
		...overrides,
	});
	return helper;
}
