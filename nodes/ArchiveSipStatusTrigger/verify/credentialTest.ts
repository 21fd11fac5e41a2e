import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import { parseSigningKeys } from './secrets';

/**
 * The credential has no API to call, so its test checks the secrets locally. Every invalid entry
 * fails the test (so does a key under 16 bytes); a key of 16 to 23 bytes passes with a warning in the message.
 */
export function testSigningSecrets(
	data: ICredentialDataDecryptedObject | undefined,
): INodeCredentialTestResult {
	const parsed = parseSigningKeys(data?.signingSecret, data?.additionalSecrets);
	if (parsed.errors.length > 0) {
		return { status: 'Error', message: parsed.errors.join('; ') };
	}
	const count = parsed.keys.length;
	const summary = `${count} signing secret${count === 1 ? '' : 's'} valid`;
	if (parsed.warnings.length > 0) {
		return { status: 'OK', message: `${summary}. Warning: ${parsed.warnings.join('; ')}` };
	}
	return { status: 'OK', message: summary };
}
