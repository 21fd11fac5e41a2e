/**
 * Timestamps are kept as microseconds since the epoch (a double holds them exactly up to year 2255) and
 * rendered the way Hasura renders Postgres `timestamptz`: `2024-03-01T10:15:42.123456+00:00`, fraction
 * without trailing zeros and left out when zero.
 */

export function formatTimestamptz(micros: number): string {
	const wholeMs = Math.floor(micros / 1000);
	const iso = new Date(Math.floor(wholeMs / 1000) * 1000).toISOString().slice(0, 19);
	const fraction = String(micros - Math.floor(wholeMs / 1000) * 1_000_000)
		.padStart(6, '0')
		.replace(/0+$/, '');
	return `${iso}${fraction ? `.${fraction}` : ''}+00:00`;
}

const TIMESTAMP_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses ISO 8601 / Postgres style input; no zone means UTC (the server's session zone). */
export function parseTimestamptz(text: string): number | undefined {
	const match = TIMESTAMP_PATTERN.exec(text.trim());
	if (!match) return undefined;
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
	const ms = Date.UTC(
		Number(year),
		Number(month) - 1,
		Number(day),
		Number(hour),
		Number(minute),
		Number(second),
	);
	if (Number.isNaN(ms)) return undefined;
	const check = new Date(ms);
	if (check.getUTCDate() !== Number(day) || check.getUTCMonth() !== Number(month) - 1)
		return undefined;
	const micros = Number(fraction.padEnd(6, '0').slice(0, 6) || '0');
	return (ms - zoneOffsetMinutes(zone) * 60_000) * 1000 + micros;
}

function zoneOffsetMinutes(zone: string | undefined): number {
	if (!zone || zone === 'Z' || zone === 'z') return 0;
	const sign = zone.startsWith('-') ? -1 : 1;
	const digits = zone.slice(1).replace(':', '');
	return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
}
