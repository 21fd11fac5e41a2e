import type { IDataObject } from 'n8n-workflow';

import type { Checked } from '../shared/checked';

const OUTCOMES = ['success', 'failure'] as const;

export type Outcome = (typeof OUTCOMES)[number];

/** What the filters look at, the event's fields as the output item carries them, and the body as parsed. */
interface StatusEvent {
	type: string;
	outcome: Outcome;
	fields: IDataObject;
	raw: IDataObject;
}

/** RFC 3339 with any fraction digits, also with a space for `T`, no seconds, `+0000`, `+01` or no zone at all. */
const EVENT_TIME_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event's `timestamp` in UTC with the fraction digits as sent (no zone: UTC), or null when it is no date-time. */
export function parseEventTime(value: unknown): string | null {
	if (typeof value !== 'string' || value.length > 64) return null;
	const match = EVENT_TIME_PATTERN.exec(value.trim());
	if (!match) return null;
	const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
	const second = Number(match[6] ?? 0);
	const [offsetHour, offsetMinute] = [match[10], match[11]].map((part) => Number(part ?? 0));
	const valid =
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= new Date(Date.UTC(year, month, 0)).getUTCDate() &&
		// 60 allows a leap second, as RFC 3339 does.
		hour <= 23 &&
		minute <= 59 &&
		second <= 60 &&
		offsetHour <= 23 &&
		offsetMinute <= 59;
	if (!valid) return null;
	const offsetMs = (match[9] === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute) * 60_000;
	const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMs);
	return `${utc.toISOString().slice(0, 19)}${match[7] ?? ''}Z`;
}

function isNonEmptyString(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

/** Absent or null means "not sent". */
function optionalString(data: IDataObject, field: string): Checked<string | null> {
	const value = data[field];
	if (value === undefined || value === null) return { ok: true, value: null };
	if (typeof value !== 'string') return { ok: false, reason: `data.${field} must be a string` };
	return { ok: true, value };
}

/** The raw body as an event, strict only about what the trigger acts on: a 400 to a genuine event loses it. */
export function parseStatusEvent(rawBody: Buffer): Checked<StatusEvent> {
	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return { ok: false, reason: 'body must be valid JSON' };
	}
	if (!isPlainObject(body)) return { ok: false, reason: 'body must be a JSON object' };
	if (!isNonEmptyString(body.type)) return { ok: false, reason: 'type must be a non-empty string' };
	const data = body.data;
	if (!isPlainObject(data)) return { ok: false, reason: 'data must be an object' };
	if (!isNonEmptyString(data.correlation_id)) {
		return { ok: false, reason: 'data.correlation_id must be a non-empty string' };
	}
	if (!OUTCOMES.includes(data.outcome as Outcome)) {
		return { ok: false, reason: `data.outcome must be one of ${OUTCOMES.join(', ')}` };
	}
	const pid = optionalString(data, 'pid');
	if (!pid.ok) return pid;
	const message = optionalString(data, 'message');
	if (!message.ok) return message;
	const outcome = data.outcome as Outcome;
	const fields: IDataObject = {
		type: body.type,
		// As sent (only passed on, so never a reason to refuse a signed event); null when absent.
		timestamp: body.timestamp ?? null,
		timestamp_utc: parseEventTime(body.timestamp),
		correlation_id: data.correlation_id,
		outcome,
		pid: pid.value,
		message: message.value,
	};
	return { ok: true, value: { type: body.type, outcome, fields, raw: body } };
}
