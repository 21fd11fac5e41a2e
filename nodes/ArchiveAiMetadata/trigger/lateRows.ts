import { createHash } from 'node:crypto';

import type { EmittedMemory } from './cursor';

/**
 * The trigger's memory of rows it emitted recently. Each poll re-reads the "Late Rows Window" before the newest
 * time emitted, so a row visible late (a late commit, replication lag) is still emitted, and the memory keeps the
 * rest from repeating. Entries are hashed and bounded; what is dropped raises the floor, below which rows are
 * not read again.
 */

/** At most this many remembered rows (about 22 bytes each in the workflow's static data), plus the rows that share the newest time. */
export const MAX_REMEMBERED_ROWS = 5000;

const MICROS_PER_MINUTE = 60_000_000;

const TIMESTAMP =
	/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Microseconds since the epoch of a timestamp as Hasura prints it (`…T10:15:42.123456+00:00`), or undefined. */
export function timestampMicros(text: string): number | undefined {
	const match = TIMESTAMP.exec(text.trim());
	if (!match) return undefined;
	const [, date, time, fraction = '', zone = 'Z'] = match;
	const offset = /^[+-]\d{2}$/.test(zone)
		? `${zone}:00`
		: zone.length === 5
			? `${zone.slice(0, 3)}:${zone.slice(3)}`
			: zone;
	const ms = Date.parse(`${date}T${time}${offset.toUpperCase()}`);
	return Number.isNaN(ms) ? undefined : ms * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** UTC ISO text with microseconds, as Hasura reads it. */
export function microsToIso(micros: number): string {
	const seconds = Math.floor(micros / 1_000_000);
	const fraction = String(micros - seconds * 1_000_000).padStart(6, '0');
	return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

/** Start of the span each poll re-reads: the window before the newest time emitted. */
export function windowStart(watermarkMicros: number, windowMinutes: number): number {
	return watermarkMicros - Math.round(windowMinutes * MICROS_PER_MINUTE);
}

/** The hash a memory entry keeps of a row's identity (`rowIdentity`: its time and key columns). */
function identityHash(identity: string): string {
	return createHash('sha256').update(identity).digest('base64url').slice(0, 11);
}

function entryTime(entry: string): number {
	return parseInt(entry.slice(0, entry.indexOf('.')), 36);
}

/** The rows the memory does not hold; rows after its newest time cannot be held and are not hashed. */
export function notRemembered<T extends { identity: string; micros: number | undefined }>(
	rows: T[],
	memory: EmittedMemory,
): T[] {
	if (memory.entries.length === 0) return rows;
	const remembered = new Set(memory.entries.map((entry) => entry.slice(entry.indexOf('.') + 1)));
	const newest = memory.entries.reduce((max, entry) => Math.max(max, entryTime(entry)), -Infinity);
	return rows.filter(
		({ identity, micros }) =>
			(micros !== undefined && micros > newest) || !remembered.has(identityHash(identity)),
	);
}

/**
 * The memory after a poll emitted `emitted`: entries older than the window dropped; over the bound, the oldest
 * whole time groups (never the newest) dropped and the floor raised to them. Only the rows kept are hashed.
 */
export function remember(
	memory: EmittedMemory,
	emitted: Array<{ micros: number; identity: string }>,
	lowerBoundMicros: number,
	newestMicros: number,
): EmittedMemory {
	const entries: Array<{ micros: number; text?: string; identity?: string }> = [];
	for (const text of memory.entries) {
		const micros = entryTime(text);
		if (micros >= lowerBoundMicros) entries.push({ micros, text });
	}
	for (const { micros, identity } of emitted) {
		if (micros >= lowerBoundMicros) entries.push({ micros, identity });
	}
	// Stable: the stored entries and each poll's rows are in time order already.
	entries.sort((a, b) => a.micros - b.micros);
	let floorMicros = memory.floor === null ? undefined : timestampMicros(memory.floor);
	let dropUntil = Math.max(0, entries.length - MAX_REMEMBERED_ROWS);
	if (dropUntil > 0) {
		// Whole time groups go, so no row at the new floor is half remembered.
		const cut = Math.min(entries[dropUntil - 1].micros, newestMicros - 1);
		while (dropUntil < entries.length && entries[dropUntil].micros <= cut) dropUntil++;
		while (dropUntil > 0 && entries[dropUntil - 1].micros > cut) dropUntil--;
		floorMicros = Math.max(floorMicros ?? cut, cut);
	}
	return {
		floor: floorMicros === undefined ? null : microsToIso(floorMicros),
		entries: entries
			.slice(dropUntil)
			.map(
				({ micros, text, identity }) =>
					text ?? `${micros.toString(36)}.${identityHash(identity as string)}`,
			),
	};
}
