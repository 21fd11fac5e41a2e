import { buildClientSchema, buildSchema, introspectionFromSchema } from 'graphql';
import type { GraphQLSchema } from 'graphql';

import {
	looksLikeObjectPath,
	presignedFieldFor,
	resolvePresign,
} from '../../../nodes/ArchiveAiMetadata/api/presign';
import {
	AI_VIEW_KEYS,
	AI_VIEWS,
	findVendorColumn,
	parseJsonText,
	resolveView,
	resolveViewOrDocumented,
	documentedView,
	shapeRecord,
	stableOrderBy,
	viewByResource,
	ViewNotFoundError,
} from '../../../nodes/ArchiveAiMetadata/api/views';
import { AiDataset } from '../../../dev/emulators';
import type { AiNaming } from '../../../dev/emulators';
import { buildAiSchema } from '../../../dev/emulators/ai/schema';

/** The schema as the node sees it: introspected, then rebuilt on the client side. */
function liveSchema(naming: AiNaming, aggregates = true): GraphQLSchema {
	const dataset = new AiDataset({ rows: 5, seed: 1, naming, rawStorage: 'inline' });
	return buildClientSchema(introspectionFromSchema(buildAiSchema(dataset, { aggregates })));
}

describe('view metadata', () => {
	it('resolves seed names against the seed-named API', () => {
		const schema = liveSchema('seed');
		for (const key of AI_VIEW_KEYS) {
			const view = resolveView(schema, key);
			expect(view.rootField).toBe(key);
			expect(view.aggregateField).toBe(`${key}_aggregate`);
			expect([...view.columns].sort()).toEqual([...AI_VIEWS[key].documentedColumns].sort());
			expect(view.live).toBe(true);
		}
		expect(resolveView(schema, 'ner_tasks').vendorColumn).toBe('extractor_json');
	});

	it('follows the aliases and the vendor column of the live-named API', () => {
		const schema = liveSchema('live', false);
		expect(resolveView(schema, 'image_tasks').rootField).toBe('face_image_tasks');
		expect(resolveView(schema, 'image_matches').rootField).toBe('face_image_matches');
		const ner = resolveView(schema, 'ner_tasks');
		expect(ner.vendorColumn).toBe('nerengine_json');
		expect(ner.rawJsonColumns.sort()).toEqual(['nerengine_json', 'processed_json']);
		expect(ner.files.map((file) => file.column)).toEqual(['processed_json', 'nerengine_json']);
		expect(ner.aggregateField).toBeUndefined();
		expect(ner.argumentTypes).toMatchObject({
			where: 'ner_tasks_bool_exp',
			order_by: '[ner_tasks_order_by!]',
			limit: 'Int',
		});
		expect(ner.columnTypes.task_id).toBe('uuid');
	});

	it('falls back to the seed names without a schema', () => {
		const view = resolveViewOrDocumented(undefined, 'image_tasks');
		expect(view.rootField).toBe('image_tasks');
		expect(view.live).toBe(false);
		expect(documentedView('ner_tasks').vendorColumn).toBe('extractor_json');
	});

	it('reports a view the API does not expose, and falls back to the seed only where asked to', () => {
		const schema = buildSchema(
			'type Query { face_tasks(limit: Int): [face_tasks!]! } type face_tasks { task_id: String pid: String }',
		);
		expect(() => resolveView(schema, 'speech_tasks')).toThrow(ViewNotFoundError);
		expect(() => resolveView(schema, 'image_tasks')).toThrow(
			'The API does not expose the Image Task view (looked for image_tasks, face_image_tasks)',
		);
		expect(resolveViewOrDocumented(schema, 'speech_tasks').live).toBe(false);
		// Only the columns the live view has are used, e.g. for the tiebreaker and Simplify.
		const faceTasks = resolveView(schema, 'face_tasks');
		expect(faceTasks.columns).toEqual(['task_id', 'pid']);
		expect(faceTasks.simplifiedColumns).toEqual(['task_id', 'pid']);
		expect(faceTasks.aggregateField).toBeUndefined();
	});

	it('maps resources to views', () => {
		expect(viewByResource('imageMatch')?.key).toBe('image_matches');
		expect(viewByResource('customQuery')).toBeUndefined();
	});

	it('finds the vendor column whatever the vendor is called', () => {
		expect(findVendorColumn(['cp', 'processed_json', 'acme_json'])).toBe('acme_json');
		expect(findVendorColumn(['cp', 'processed_json'])).toBeUndefined();
	});

	it('always ends the sort with the unique key, without repeating a column the user sorted by', () => {
		const matches = resolveView(liveSchema('seed'), 'face_matches');
		expect(stableOrderBy(matches, [{ cp: 'desc' }, { matched_time: 'desc' }])).toEqual([
			{ cp: 'desc' },
			{ matched_time: 'desc' },
			{ cluster_uuid: 'asc' },
			{ refset_person_id: 'asc' },
			{ match_score: 'asc' },
			{ refset_person_wiki_id: 'asc' },
			{ refset_person_name: 'asc' },
			{ time_intervals: 'asc' },
		]);
	});

	it('parses raw JSON text, and leaves paths and other text alone', () => {
		expect(parseJsonText('{"a": [1]}')).toEqual({ a: [1] });
		expect(parseJsonText('abc/transcript.json')).toBe('abc/transcript.json');
		expect(parseJsonText('{not json')).toBe('{not json');
		const speech = resolveView(liveSchema('seed'), 'speech_tasks');
		expect(shapeRecord(speech, { statistics: '{"n": 1}', title: '{"x": 1}' })).toEqual({
			statistics: { n: 1 },
			title: '{"x": 1}',
		});
		expect(shapeRecord(speech, { statistics: '{"n": 1}' }, { keepRawJson: true })).toEqual({
			statistics: '{"n": 1}',
		});
	});

	it('reads presignS3 names from the schema', () => {
		const presign = resolvePresign(liveSchema('live'));
		expect(presign?.argumentType).toBe('urls_sets_input!');
		expect(presign && presignedFieldFor(presign, 'transcript_srt')).toBe('presigned_srt');
		expect(presign && presignedFieldFor(presign, 'audio_classification_json')).toBe(
			'presigned_audio_classification_json',
		);
		expect(presign && presignedFieldFor(presign, 'nerengine_json')).toBe(
			'presigned_nerengine_json',
		);
		expect(presign && presignedFieldFor(presign, 'statistics')).toBeUndefined();
	});

	it('tells object paths from inline content', () => {
		expect(looksLikeObjectPath('0b6a4d1e-3f5c-4b8a-9c2d-7e1f0a9b8c7d/transcript.srt')).toBe(true);
		expect(looksLikeObjectPath('1\n00:00:00,000 --> 00:00:01,000\nHallo')).toBe(false);
		expect(looksLikeObjectPath('Goedenavond en welkom.')).toBe(false);
		expect(looksLikeObjectPath('{"segments": []}')).toBe(false);
	});
});
