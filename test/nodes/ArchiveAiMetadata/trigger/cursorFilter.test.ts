import type { IDataObject } from 'n8n-workflow';

import {
	afterCursorFilter,
	cursorAfter,
	cursorOrder,
	readCursor,
	saveCursor,
} from '../../../../nodes/ArchiveAiMetadata/trigger/cursor';
import type { CursorColumns } from '../../../../nodes/ArchiveAiMetadata/trigger/cursor';

// The cursor's Hasura filter, evaluated here as Hasura would (only the operators it uses), against rows sorted in
// the cursor's order: "after the cursor" must be exactly the rows after the cursor's row, nulls last in the keys.

type Row = Record<string, string | number | null>;

function compare(a: string | number | null, b: string | number | null): number {
	return a! < b! ? -1 : a! > b! ? 1 : 0;
}

function holds(where: IDataObject, row: Row): boolean {
	return Object.entries(where).every(([field, condition]) => {
		if (field === '_or') return (condition as IDataObject[]).some((branch) => holds(branch, row));
		if (field === '_and') return (condition as IDataObject[]).every((branch) => holds(branch, row));
		const value = row[field];
		return Object.entries(condition as IDataObject).every(([operator, operand]) => {
			if (operator === '_is_null') return (value === null) === operand;
			if (value === null) return false;
			const order = compare(value, operand as string | number);
			if (operator === '_gt') return order > 0;
			if (operator === '_gte') return order >= 0;
			if (operator === '_eq') return order === 0;
			throw new Error(`operator ${operator} not evaluated here`);
		});
	});
}

/** Sorts like `cursorOrder(columns, 'asc')`: time ascending, then each key ascending with nulls last. */
function sortedAsCursor(rows: Row[], columns: CursorColumns): Row[] {
	const order = cursorOrder(columns, 'asc').map(
		(entry) => Object.entries(entry)[0] as [string, string],
	);
	return [...rows].sort((a, b) => {
		for (const [column] of order) {
			if (a[column] === b[column]) continue;
			if (a[column] === null) return 1;
			if (b[column] === null) return -1;
			return compare(a[column], b[column]);
		}
		return 0;
	});
}

const COLUMNS: CursorColumns = { time: 'updated_at', key: ['task_id', 'person_id'] };

/** Every combination of a few times and key values, nulls included: ties on time and on the first key. */
function rows(): Row[] {
	const result: Row[] = [];
	for (const time of [
		'2025-01-01T10:00:00.000001',
		'2025-01-01T10:00:00.000002',
		'2025-01-02T00:00:00',
	])
		for (const task of ['a', 'b', null])
			for (const person of [1, 2, null])
				result.push({ updated_at: time, task_id: task, person_id: person });
	return result;
}

describe('afterCursorFilter', () => {
	const all = sortedAsCursor(rows(), COLUMNS);

	it.each(all.map((row, index) => [index, row] as const))(
		'after row %i it selects exactly the rows that follow it',
		(index, row) => {
			const cursor = cursorAfter(row, COLUMNS, 'face_tasks')!;
			const where = afterCursorFilter(cursor, COLUMNS);

			expect(all.filter((candidate) => holds(where, candidate))).toEqual(all.slice(index + 1));
		},
	);

	it('a cursor without key (a moment) selects the rows at or after its time', () => {
		const where = afterCursorFilter({ time: '2025-01-01T10:00:00.000002', key: null }, COLUMNS);

		expect(all.filter((row) => holds(where, row))).toEqual(
			all.filter((row) => String(row.updated_at) >= '2025-01-01T10:00:00.000002'),
		);
	});

	it('a cursor saved with fewer key columns compares on the columns it has', () => {
		const where = afterCursorFilter({ time: '2025-01-01T10:00:00.000001', key: ['a'] }, COLUMNS);
		const selected = all.filter((row) => holds(where, row));

		expect(
			selected.some(
				(row) => row.updated_at === '2025-01-01T10:00:00.000001' && row.task_id === 'a',
			),
		).toBe(false);
		expect(selected).toContainEqual({
			updated_at: '2025-01-01T10:00:00.000001',
			task_id: 'b',
			person_id: 1,
		});
	});
});

describe('cursor in static data', () => {
	it('survives a save and a read, and a row without time gives no cursor', () => {
		const staticData: IDataObject = {};
		const cursor = cursorAfter(
			{ updated_at: '2025-01-01T10:00:00.5', task_id: 'a', person_id: null },
			COLUMNS,
			'face_tasks',
			'2025-01-01',
		);
		saveCursor(staticData, cursor!);

		expect(readCursor(JSON.parse(JSON.stringify(staticData)) as IDataObject)).toEqual({
			...cursor,
			memory: undefined,
		});
		expect(cursorAfter({ updated_at: null, task_id: 'a' }, COLUMNS, 'face_tasks')).toBeUndefined();
	});
});
