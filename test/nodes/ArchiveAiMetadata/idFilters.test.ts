import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ArchiveAiMetadata } from '../../../nodes/ArchiveAiMetadata/ArchiveAiMetadata.node';
import type { Sandbox } from '../../../dev/emulators';
import { jsonOf, resetState, runAi, withSandbox } from './helpers';

/** Filter parameter -> column, per resource: only where the documented schema gives the view that column. */
const ID_FILTERS: Record<string, Record<string, string>> = {
	faceTask: {
		externalId: 'external_id',
		mainLocalId: 'main_local_id',
		mediaObjectId: 'media_object_id',
		taskIds: 'task_id',
	},
	imageTask: {
		externalId: 'external_id',
		mainLocalId: 'main_local_id',
		mediaObjectId: 'media_object_id',
		taskIds: 'task_id',
	},
	speechTask: {
		externalId: 'external_id',
		fragmentId: 'fragment_id',
		mainLocalId: 'main_local_id',
		mediaObjectId: 'media_object_id',
		taskIds: 'task_id',
	},
	nerTask: { fragmentId: 'fragment_id', taskIds: 'task_id' },
	faceMatch: { refsetPersonWikiId: 'refset_person_wiki_id' },
	imageMatch: { refsetPersonWikiId: 'refset_person_wiki_id' },
	refsetPerson: {},
};

const VIEW_OF: Record<string, string> = {
	faceTask: 'face_tasks',
	imageTask: 'image_tasks',
	speechTask: 'speech_tasks',
	nerTask: 'ner_tasks',
	faceMatch: 'face_matches',
	imageMatch: 'image_matches',
	refsetPerson: 'refset_persons',
};

const ALL_ID_FILTERS = [
	'externalId',
	'fragmentId',
	'mainLocalId',
	'mediaObjectId',
	'refsetPersonWikiId',
	'taskIds',
];

function filterNamesOffered(resource: string, operation: string): string[] {
	const collection = new ArchiveAiMetadata().description.properties.find(
		(property) =>
			property.name === 'filters' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);
	return ((collection?.options ?? []) as INodeProperties[]).map((option) => option.name);
}

const cases = Object.entries(ID_FILTERS).flatMap(([resource, filters]) =>
	Object.entries(filters).map(([filter, column]) => ({ resource, filter, column })),
);

describe('friendly filters on the ids users hold', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ rows: 300 });
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => resetState(sandbox));

	it.each(Object.keys(ID_FILTERS))(
		'%s offers exactly the id filters of its columns',
		(resource) => {
			const offered = filterNamesOffered(resource, 'getAll').filter((name) =>
				ALL_ID_FILTERS.includes(name),
			);
			expect(offered.sort()).toEqual(Object.keys(ID_FILTERS[resource]).sort());
		},
	);

	it.each(cases)(
		'$resource: $filter returns exactly the rows with one of the listed $column values',
		async ({ resource, filter, column }) => {
			const records = sandbox.data.ai.records(VIEW_OF[resource]) as IDataObject[];
			const values = [
				...new Set(records.map((row) => row[column]).filter((value) => typeof value === 'string')),
			].slice(0, 3);
			expect(values).toHaveLength(3);
			const expected = records.filter((row) => values.includes(row[column] as string));
			const result = await runAi(sandbox, {
				resource,
				operation: 'getAll',
				returnAll: true,
				filters: { [filter]: ` ${values.join(' , ')}, ` },
			});
			expect(result.error).toBeUndefined();
			const rows = jsonOf(result);
			expect(rows.map((row) => row[column]).sort()).toEqual(
				expected.map((row) => row[column]).sort(),
			);
			expect(rows.length).toBeLessThan(records.length);
		},
	);

	it('says which task id is not a UUID, before the data query', async () => {
		const result = await runAi(sandbox, {
			resource: 'speechTask',
			operation: 'getAll',
			filters: { taskIds: 'abc, 0b6a4d1e-3f5c-4b8a-9c2d-7e1f0a9b8c7d' },
		});
		expect(result.error?.message).toBe('Parameter "Task IDs": must be UUIDs, got "abc"');
	});
});
