/** Date-times with an explicit zone (`Z`, `+02:00`, `+0200`). */
const HAS_ZONE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/**
 * A date-time parameter as a UTC ISO string, or undefined when it is not an ISO 8601 date. Without a zone it is a
 * wall-clock time in the workflow's timezone, as n8n's date-time picker means it.
 */
export function dateTimeToUtc(value: string, timeZone: string): string | undefined {
	const text = value.trim();
	if (HAS_ZONE.test(text)) {
		if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(text)) return undefined;
		const epoch = Date.parse(text.replace(' ', 'T'));
		return Number.isNaN(epoch) ? undefined : new Date(epoch).toISOString();
	}
	const match = ISO_DATE_TIME.exec(text);
	if (!match) return undefined;
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0'] = match;
	const wallClock = Date.UTC(
		Number(year),
		Number(month) - 1,
		Number(day),
		Number(hour),
		Number(minute),
		Number(second),
		Math.floor(Number(`0.${fraction}`) * 1000),
	);
	if (Number.isNaN(wallClock) || new Date(wallClock).getUTCDate() !== Number(day)) return undefined;
	// Two passes find the offset in force at that wall-clock time (daylight saving changes the offset).
	const firstGuess = wallClock - zoneOffsetMs(timeZone, wallClock);
	return new Date(wallClock - zoneOffsetMs(timeZone, firstGuess)).toISOString();
}

/** Offset of `timeZone` from UTC at the instant `epochMs`, from Intl (no date library needed). */
function zoneOffsetMs(timeZone: string, epochMs: number): number {
	let parts: Intl.DateTimeFormatPart[];
	try {
		parts = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		}).formatToParts(new Date(epochMs));
	} catch {
		return 0; // An unknown timezone name: UTC.
	}
	const part = (type: Intl.DateTimeFormatPartTypes) =>
		Number(parts.find((entry) => entry.type === type)?.value ?? 0);
	const asUtc = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return asUtc - Math.floor(epochMs / 1000) * 1000;
}
