import { createHash } from 'node:crypto';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { OutcomeFilter, OutputMode, TriggerSettings } from './delivery';
import { parseSigningKeys, type SigningKeys } from './verify/secrets';
import {
	recentSigningKeys,
	rememberSigningKeys,
	secretsChanged,
	sharedRead,
	takeForcedReread,
} from './verify/signingKeyCache';
import { DEFAULT_EVENT_TYPE_CHOICE, EVENT_TYPE_CHOICES, splitPatterns } from './typeFilter';

const CREDENTIAL_NAME = 'archiveSipWebhookApi';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * A wider window would let an old signed delivery be replayed after its id left the replay record (72 h): larger
 * values are clamped to this one hour.
 */
export const MAX_TOLERANCE_SECONDS = 3600;

export const DEFAULT_MAX_BODY_KIB = 1024;

/** A setup problem the sender cannot fix: answered 500 so it retries later. Messages hold no secrets. */
export class TriggerConfigurationError extends Error {}

function numberOption(options: IDataObject, name: string, fallback: number): number {
	const value = options[name];
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Max Body Size in bytes, from the node's options (read before the body, so a large one is refused unread). */
export function maxBodyBytesOf(options: IDataObject): number {
	return Math.floor(numberOption(options, 'maxBodySizeKib', DEFAULT_MAX_BODY_KIB) * 1024);
}

interface ResolvedSettings {
	settings: TriggerSettings;
	eventsPerMinute: number;
	/** Problems with some secrets while others are usable; set once per change of the secrets, to be logged, never answered. */
	secretProblems: string[];
	/** True when the keys were read from the credential by an earlier delivery (see signingKeyCache.ts). */
	keysReused: boolean;
}

function credentialIdOf(context: IWebhookFunctions): string | undefined {
	return context.getNode().credentials?.[CREDENTIAL_NAME]?.id ?? undefined;
}

/**
 * Whose keys a read or a cache entry holds: the credential as this workflow reads it, in this mode. Another
 * workflow naming the same credential id gets its own read, so n8n checks that it may use the credential.
 */
function credentialReadKey(context: IWebhookFunctions, credentialId: string): string {
	return [context.getMode(), context.getWorkflow().id ?? '', credentialId].join('\u0000');
}

/** Identifies the secrets' values without keeping them: the unusable-secret warning is logged once per change. */
function fingerprintOf(signingSecret: unknown, additionalSecrets: unknown): string {
	return createHash('sha256')
		.update(`${String(signingSecret)}\0${String(additionalSecrets)}`)
		.digest('base64');
}

/**
 * The credential's signing keys. Production deliveries reuse keys this process read a moment ago, unless
 * `reuseRecentKeys` is false; test-URL deliveries always read the credential, so edits show at once there. A
 * delivery arriving while a read of the same credential is under way shares it instead of reading again; keys
 * from such a read count as read for this delivery (not `reused`), since they were read while it was handled.
 */
async function signingKeys(
	context: IWebhookFunctions,
	reuseRecentKeys: boolean,
	nowMs: number,
): Promise<{ keys: SigningKeys; reused: boolean; problemsAreNew: boolean }> {
	const credentialId = credentialIdOf(context);
	const readKey = credentialId === undefined ? undefined : credentialReadKey(context, credentialId);
	const cacheKey = context.getMode() === 'webhook' ? readKey : undefined;
	const recent = cacheKey && reuseRecentKeys ? recentSigningKeys(cacheKey, nowMs) : undefined;
	if (recent) return { keys: recent, reused: true, problemsAreNew: false };
	const read = async () => {
		const credentials = await context.getCredentials(CREDENTIAL_NAME);
		const keys = parseSigningKeys(credentials.signingSecret, credentials.additionalSecrets);
		if (cacheKey && keys.keys.length > 0) rememberSigningKeys(cacheKey, keys, nowMs);
		const fingerprint = fingerprintOf(credentials.signingSecret, credentials.additionalSecrets);
		return { keys, problemsAreNew: secretsChanged(credentialId ?? '', fingerprint) };
	};
	if (readKey === undefined) return { ...(await read()), reused: false };
	const { value, joined } = await sharedRead(readKey, read);
	// The warning about unusable secrets belongs to the delivery that read them.
	return { keys: value.keys, reused: false, problemsAreNew: value.problemsAreNew && !joined };
}

/**
 * Whether a refusal with reused keys may read the credential again: once per few seconds per credential, so a
 * stream of forgeries costs no more credential reads than a quiet trigger.
 */
export function mayRereadSigningKeys(context: IWebhookFunctions, nowMs: number): boolean {
	const credentialId = credentialIdOf(context);
	return credentialId !== undefined && takeForcedReread(credentialId, nowMs);
}

/** Timestamp Tolerance in seconds, from the node's options; checked before the credential is read. */
export function toleranceSecondsOf(options: IDataObject): number {
	return Math.min(
		MAX_TOLERANCE_SECONDS,
		numberOption(options, 'toleranceSeconds', DEFAULT_TOLERANCE_SECONDS),
	);
}

/** The patterns of the Event Types choice: a known set, or the Custom Patterns typed (empty: every type). */
export function typePatternsOf(
	readParameter: (name: string, fallback: unknown) => unknown,
): string[] {
	const choice = readParameter('eventTypes', DEFAULT_EVENT_TYPE_CHOICE);
	if (choice === 'custom') return splitPatterns(readParameter('customEventTypes', ''));
	return [
		...(EVENT_TYPE_CHOICES[choice as keyof typeof EVENT_TYPE_CHOICES] ?? EVENT_TYPE_CHOICES.any),
	];
}

/** Whether filtered-out events leave through the "Filtered Out" output (off by default). */
export function sendsFilteredOut(options: IDataObject): boolean {
	return options.sendFilteredOut === true;
}

/** `options` is the node's Options collection, read once per delivery by the caller. */
export async function readSettings(
	context: IWebhookFunctions,
	{
		reuseRecentKeys,
		nowMs,
		options,
	}: { reuseRecentKeys: boolean; nowMs: number; options: IDataObject },
): Promise<ResolvedSettings> {
	const {
		keys: parsed,
		reused,
		problemsAreNew,
	} = await signingKeys(context, reuseRecentKeys, nowMs);
	if (parsed.keys.length === 0) {
		throw new TriggerConfigurationError(`No usable signing secret: ${parsed.errors.join('; ')}`);
	}
	return {
		settings: {
			keys: parsed.keys,
			toleranceSeconds: toleranceSecondsOf(options),
			maxBodyBytes: maxBodyBytesOf(options),
			outcomeFilter: context.getNodeParameter('outcomes', 'both') as OutcomeFilter,
			typePatterns: typePatternsOf((name, fallback) => context.getNodeParameter(name, fallback)),
			outputMode: context.getNodeParameter('outputMode', 'single') as OutputMode,
			includeRawEvent: options.includeRawEvent === true,
			sendFilteredOut: sendsFilteredOut(options),
		},
		eventsPerMinute: Math.floor(numberOption(options, 'eventsPerMinute', 0)),
		secretProblems: problemsAreNew ? parsed.errors : [],
		keysReused: reused,
	};
}
