import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { OutcomeFilter, OutputMode, TriggerSettings } from './delivery';
import { parseSigningKeys } from './secrets';
import { DEFAULT_EVENT_TYPE_PATTERNS, splitPatterns } from './typeFilter';

export const CREDENTIAL_NAME = 'archiveSipWebhookApi';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export const DEFAULT_MAX_BODY_KIB = 1024;

/** A setup problem the sender cannot fix: answered 500 so it retries later. Messages hold no secrets. */
export class TriggerConfigurationError extends Error {}

function numberOption(options: IDataObject, name: string, fallback: number): number {
	const value = options[name];
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export interface ResolvedSettings {
	settings: TriggerSettings;
	eventsPerMinute: number;
	/** Problems with some secrets while others are usable; logged, never answered. */
	secretProblems: string[];
}

export async function readSettings(context: IWebhookFunctions): Promise<ResolvedSettings> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const parsed = parseSigningKeys(credentials.signingSecret, credentials.additionalSecrets);
	if (parsed.keys.length === 0) {
		throw new TriggerConfigurationError(`No usable signing secret: ${parsed.errors.join('; ')}`);
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const typePatterns =
		options.eventTypes === undefined ? DEFAULT_EVENT_TYPE_PATTERNS : options.eventTypes;
	return {
		settings: {
			keys: parsed.keys,
			toleranceSeconds: numberOption(options, 'toleranceSeconds', DEFAULT_TOLERANCE_SECONDS),
			maxBodyBytes: Math.floor(numberOption(options, 'maxBodySizeKib', DEFAULT_MAX_BODY_KIB) * 1024),
			outcomeFilter: context.getNodeParameter('outcomes', 'both') as OutcomeFilter,
			typePatterns: splitPatterns(typePatterns),
			outputMode: context.getNodeParameter('outputMode', 'single') as OutputMode,
			includeRawEvent: options.includeRawEvent === true,
		},
		eventsPerMinute: Math.floor(numberOption(options, 'eventsPerMinute', 0)),
		secretProblems: parsed.errors,
	};
}
