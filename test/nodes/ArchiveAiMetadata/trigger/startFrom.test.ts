import { dateTimeToUtc } from '../../../../nodes/shared/n8n/dateTime';

describe('"Start From" parsing', () => {
	it('keeps explicit zones and reads zone-less times in the workflow timezone, across daylight saving', () => {
		expect(dateTimeToUtc('2025-01-31T08:00:00Z', 'Europe/Brussels')).toBe(
			'2025-01-31T08:00:00.000Z',
		);
		expect(dateTimeToUtc('2025-01-31T08:00:00+02:00', 'UTC')).toBe('2025-01-31T06:00:00.000Z');
		expect(dateTimeToUtc('2025-01-31T08:00:00', 'Europe/Brussels')).toBe(
			'2025-01-31T07:00:00.000Z',
		);
		expect(dateTimeToUtc('2025-07-31T08:00:00', 'Europe/Brussels')).toBe(
			'2025-07-31T06:00:00.000Z',
		);
		expect(dateTimeToUtc('2025-07-31', 'America/New_York')).toBe('2025-07-31T04:00:00.000Z');
		expect(dateTimeToUtc('2025-02-30T00:00:00', 'UTC')).toBeUndefined();
		expect(dateTimeToUtc('yesterday', 'UTC')).toBeUndefined();
	});
});
