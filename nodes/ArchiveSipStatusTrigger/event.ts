import type { IDataObject } from 'n8n-workflow';

/** Validation of the StatusUpdate body (seed 000) and the flattened item the node emits. */

export const OUTCOMES = ['success', 'failure'] as const;

export type Outcome = (typeof OUTCOMES)[number];

export interface StatusEvent {
	type: string;
	timestamp: string;
	correlationId: string;
	outcome: Outcome;
	pid: string | null;
	message: string | null;
	raw: IDataObject;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** RFC 3339 date-time; any number of fraction digits (the real sender sends microseconds). */
const DATE_TIME_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Checks the shape and the calendar: `2025-02-30T00:00:00Z` is rejected. */
export function isIsoDateTime(value: string): boolean {
	const match = DATE_TIME_PATTERN.exec(value);
	if (!match) return false;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const [offsetHour, offsetMinute] = [match[7], match[8]].map((part) => Number(part ?? 0));
	return (
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth(year, month) &&
		hour <= 23 &&
		minute <= 59 &&
		// 60 allows a leap second, as RFC 3339 does.
		second <= 60 &&
		offsetHour <= 23 &&
		offsetMinute <= 59
	);
}

function isNonEmptyString(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

/** An optional string field: absent or null means "not sent". */
function optionalString(data: IDataObject, field: string): Parsed<string | null> {
	const value = data[field];
	if (value === undefined || value === null) return { ok: true, value: null };
	if (typeof value !== 'string') return { ok: false, error: `data.${field} must be a string` };
	return { ok: true, value };
}

/** Parses the raw body as JSON; never re-serialized, the bytes were verified as they are. */
export function parseJsonBody(rawBody: Buffer): Parsed<unknown> {
	try {
		return { ok: true, value: JSON.parse(rawBody.toString('utf8')) as unknown };
	} catch {
		return { ok: false, error: 'body must be valid JSON' };
	}
}

/** Validates a parsed body; the error names the first field that is wrong. */
export function validateStatusEvent(body: unknown): Parsed<StatusEvent> {
	if (!isPlainObject(body)) return { ok: false, error: 'body must be a JSON object' };
	if (!isNonEmptyString(body.type)) return { ok: false, error: 'type must be a non-empty string' };
	if (typeof body.timestamp !== 'string' || !isIsoDateTime(body.timestamp)) {
		return { ok: false, error: 'timestamp must be an ISO 8601 date-time string' };
	}
	const data = body.data;
	if (!isPlainObject(data)) return { ok: false, error: 'data must be an object' };
	if (!isNonEmptyString(data.correlation_id)) {
		return { ok: false, error: 'data.correlation_id must be a non-empty string' };
	}
	if (!OUTCOMES.includes(data.outcome as Outcome)) {
		return { ok: false, error: `data.outcome must be one of ${OUTCOMES.join(', ')}` };
	}
	const pid = optionalString(data, 'pid');
	if (!pid.ok) return pid;
	const message = optionalString(data, 'message');
	if (!message.ok) return message;
	return {
		ok: true,
		value: {
			type: body.type,
			timestamp: body.timestamp,
			correlationId: data.correlation_id,
			outcome: data.outcome as Outcome,
			pid: pid.value,
			message: message.value,
			raw: body,
		},
	};
}

export interface DeliveryInfo {
	webhookId: string;
	receivedAt: Date;
}

/** The item the trigger emits: the event flattened, plus delivery facts and optionally the raw event. */
export function toOutputJson(
	event: StatusEvent,
	delivery: DeliveryInfo,
	includeRawEvent: boolean,
): IDataObject {
	const json: IDataObject = {
		type: event.type,
		timestamp: event.timestamp,
		correlation_id: event.correlationId,
		outcome: event.outcome,
		pid: event.pid,
		message: event.message,
		webhook_id: delivery.webhookId,
		received_at: delivery.receivedAt.toISOString(),
	};
	if (includeRawEvent) json.event = event.raw;
	return json;
}
