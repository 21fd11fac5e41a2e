import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { getTouched, setBounded } from '../../shared/boundedCache';
import { MAX_TRIGGER_SCOPES } from '../../shared/n8n/limits';

/**
 * Ids accepted by earlier builds of the trigger, which kept them in the trigger's workflow static data
 * (at most 5,000, 12 characters of SHA-256 each, grouped by expiry hour; earlier still `{ key: expiryMinute }`).
 * They are honoured until they expire (72 hours after the upgrade at most), read once per trigger per process; then
 * the entry is removed from the static data, and n8n saves that once.
 */
export const LEGACY_RECORD_KEY = 'acceptedWebhookIds';

const KEY_LENGTH = 12;
const HOUR_MS = 3_600_000;

function legacyKey(webhookId: string): string {
	return createHash('sha256').update(webhookId, 'utf8').digest('base64url').slice(0, KEY_LENGTH);
}

interface LegacyIds {
	/** Legacy key -> expiry (ms). */
	expiries: Map<string, number>;
	lastExpiryMs: number;
}

function readLegacyRecord(stored: unknown): LegacyIds {
	const expiries = new Map<string, number>();
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
		return { expiries, lastExpiryMs: 0 };
	const keep = (key: string, expiresAtMs: number) =>
		expiries.set(key, Math.max(expiresAtMs, expiries.get(key) ?? 0));
	for (const [name, value] of Object.entries(stored as IDataObject)) {
		if (typeof value === 'string' && /^\d+$/.test(name) && value.length % KEY_LENGTH === 0) {
			for (let at = 0; at < value.length; at += KEY_LENGTH)
				keep(value.slice(at, at + KEY_LENGTH), Number(name) * HOUR_MS);
		} else if (typeof value === 'number' && name.length >= KEY_LENGTH) {
			keep(name.slice(0, KEY_LENGTH), value * 60_000);
		}
	}
	return { expiries, lastExpiryMs: Math.max(0, ...expiries.values()) };
}

/** Per trigger: the legacy ids still live, or null once there are none. */
const legacyByTrigger = new Map<string, LegacyIds | null>();

/**
 * Whether a trigger's earlier layout recorded this id, or undefined when it holds nothing live (the usual case,
 * decided once per trigger and process). `staticData` is the node's workflow static data of a production delivery.
 */
export function legacyAcceptedIds(
	staticData: IDataObject,
	scope: string,
	nowMs: number,
): ((webhookId: string) => boolean) | undefined {
	let legacy = getTouched(legacyByTrigger, scope);
	if (legacy === undefined) {
		legacy =
			LEGACY_RECORD_KEY in staticData ? readLegacyRecord(staticData[LEGACY_RECORD_KEY]) : null;
		setBounded(legacyByTrigger, scope, legacy, MAX_TRIGGER_SCOPES);
	}
	if (legacy === null) return undefined;
	if (legacy.lastExpiryMs <= nowMs) {
		legacyByTrigger.set(scope, null);
		// n8n's static data notices a deleted key and saves the change after webhook().
		delete staticData[LEGACY_RECORD_KEY];
		return undefined;
	}
	const { expiries } = legacy;
	return (webhookId) => (expiries.get(legacyKey(webhookId)) ?? 0) > nowMs;
}
