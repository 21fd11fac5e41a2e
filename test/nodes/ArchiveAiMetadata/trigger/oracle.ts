/**
 * Expected results computed straight from the emulator's dataset (not from the node): which records are newer
 * than a cursor, in (time, key) order.
 */
import type { AiRecord, Sandbox } from '../../../../dev/emulators';

/** Microseconds since the epoch of a Hasura timestamptz (`2024-03-01T10:15:42.123456+00:00`). */
export function micros(timestamp: string): number {
	const match = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(timestamp);
	if (!match) throw new Error(`Not a timestamp: ${timestamp}`);
	const [, base, fraction = '', zone = 'Z'] = match;
	return Date.parse(`${base}${zone}`) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

export interface ViewShape {
	time: string;
	key: string[];
}

export const TASK_SHAPE: ViewShape = { time: 'processed_time', key: ['task_id'] };
export const MATCH_SHAPE: ViewShape = {
	time: 'matched_time',
	key: [
		'cluster_uuid',
		'refset_person_id',
		'match_score',
		'refset_person_wiki_id',
		'refset_person_name',
		'cp',
	],
};

function compareText(a: unknown, b: unknown): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const left = String(a);
	const right = String(b);
	return left < right ? -1 : left > right ? 1 : 0;
}

export function compareRows(shape: ViewShape, a: AiRecord, b: AiRecord): number {
	const byTime = micros(String(a[shape.time])) - micros(String(b[shape.time]));
	if (byTime !== 0) return byTime;
	for (const column of shape.key) {
		const byKey = compareText(a[column], b[column]);
		if (byKey !== 0) return byKey;
	}
	return 0;
}

export interface CursorLike {
	time: string;
	key: Array<string | number | null> | null;
}

/** Records strictly after the cursor (or at/after its time when it has no key), oldest first. */
export function recordsAfter(
	sandbox: Sandbox,
	view: string,
	shape: ViewShape,
	cursor: CursorLike,
	accept: (record: AiRecord) => boolean = () => true,
): AiRecord[] {
	const cursorTime = micros(cursor.time);
	return sandbox.data.ai
		.records(view)
		.filter((record) => record[shape.time] !== null && accept(record))
		.filter((record) => {
			const time = micros(String(record[shape.time]));
			if (time !== cursorTime || cursor.key === null)
				return cursor.key === null ? time >= cursorTime : time > cursorTime;
			for (let index = 0; index < shape.key.length; index++) {
				const byKey = compareText(record[shape.key[index]], cursor.key[index]);
				if (byKey !== 0) return byKey > 0;
			}
			return false;
		})
		.sort((a, b) => compareRows(shape, a, b));
}

/** The newest record by (time, key). */
export function newestRecord(
	sandbox: Sandbox,
	view: string,
	shape: ViewShape,
	accept: (record: AiRecord) => boolean = () => true,
): AiRecord {
	const records = sandbox.data.ai
		.records(view)
		.filter((record) => record[shape.time] !== null && accept(record))
		.sort((a, b) => compareRows(shape, a, b));
	return records[records.length - 1];
}

/** A row's identity as the tests compare it. */
export function identity(shape: ViewShape, record: Record<string, unknown>): string {
	return [record[shape.time], ...shape.key.map((column) => record[column])].join('|');
}

/** An ISO moment `seconds` after a timestamp. */
export function after(timestamp: string, seconds: number): string {
	return new Date(Math.floor(micros(timestamp) / 1000) + seconds * 1000).toISOString();
}
