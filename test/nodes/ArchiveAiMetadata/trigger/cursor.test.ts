import type { IDataObject } from 'n8n-workflow';

import {
	cursorOrder,
	keyOf,
	readCursor,
	saveCursor,
} from '../../../../nodes/ArchiveAiMetadata/trigger/cursor';
import type { Cursor, CursorColumns } from '../../../../nodes/ArchiveAiMetadata/trigger/cursor';

const COLUMNS: CursorColumns = { time: 'updated_at', key: ['task_id', 'person_id'] };

describe('cursor order', () => {
	it('is time then each key ascending with nulls last, or the newest first', () => {
		expect(cursorOrder(COLUMNS, 'asc')).toEqual([
			{ updated_at: 'asc_nulls_last' },
			{ task_id: 'asc_nulls_last' },
			{ person_id: 'asc_nulls_last' },
		]);
		expect(cursorOrder(COLUMNS, 'desc')).toEqual([
			{ updated_at: 'desc_nulls_last' },
			{ task_id: 'desc_nulls_first' },
			{ person_id: 'desc_nulls_first' },
		]);
	});
});

describe('cursor in static data', () => {
	it('survives a save and a read', () => {
		const staticData: IDataObject = {};
		const row = { updated_at: '2025-01-01T10:00:00.5', task_id: 'a', person_id: null };
		const cursor: Cursor = {
			view: 'face_tasks',
			time: '2025-01-01T10:00:00.5',
			key: keyOf(row, COLUMNS),
			startFrom: '2025-01-01',
			memory: { floor: '2025-01-01T09:55:00.500000Z', entries: ['a1b2.hash'] },
		};
		saveCursor(staticData, cursor);

		expect(cursor.key).toEqual(['a', null]);
		expect(readCursor(JSON.parse(JSON.stringify(staticData)) as IDataObject)).toEqual(cursor);
	});

	it('a stored cursor without a readable memory is none: the trigger starts over', () => {
		const stored = { view: 'face_matches', time: '2025-01-01T10:00:00Z', key: ['c', 'p'] };

		expect(readCursor({ cursor: stored })).toBeUndefined();
		expect(readCursor({ cursor: { ...stored, memory: { floor: null } } })).toBeUndefined();
	});
});
