import type { Sandbox } from '../../dev/emulators';
import { aiCredentialImport, orgCredentialImport } from '../../dev/n8n/credentials';
import type { CredentialImport } from '../../dev/n8n/n8n';
import type { CredentialRef } from '../../dev/n8n/workflows';
import { EXAMPLE_CREDENTIALS, EXAMPLE_WORKFLOW_IDS } from '../examples/workflows';

/**
 * The demo's credentials: fixed ids, so a restarted demo finds (and does not duplicate) what it imported before, and
 * the names n8n gives a new credential of each type, the names examples/*.json refer to, so that importing the
 * examples links them.
 */
export const DEMO_CREDENTIALS = {
	ai: { id: 'DemoAiMetadata01', name: EXAMPLE_CREDENTIALS.ai.name },
	org: { id: 'DemoOrganizatn01', name: EXAMPLE_CREDENTIALS.org.name },
	sip: { id: 'DemoSipSecret001', name: EXAMPLE_CREDENTIALS.sip.name },
} as const satisfies Record<string, CredentialRef>;

/** The three credentials the examples refer to, pointed at the given emulators. */
export function demoCredentials(sandbox: Sandbox, signingSecret: string): CredentialImport[] {
	return [
		aiCredentialImport(DEMO_CREDENTIALS.ai, sandbox),
		orgCredentialImport(DEMO_CREDENTIALS.org, sandbox, { jwtPlacement: 'header' }),
		{
			...DEMO_CREDENTIALS.sip,
			type: 'archiveSipWebhookApi',
			data: { signingSecret, additionalSecrets: '' },
		},
	];
}

/** The workflows `npm start` imports (examples/*.json) by their ids; `sip` and `export` are activated. */
export const DEMO_WORKFLOW_IDS = EXAMPLE_WORKFLOW_IDS;
