/** Views and columns of the AI metadata API (as documented), in both published namings. */

/** Postgres array column types, as Hasura names their scalars; values are rendered as array literals `{a,b}`. */
export type ArrayColumnType = '_uuid' | '_int4' | '_numeric' | '_text';

export type ColumnType =
	| 'String'
	| 'Int'
	| 'Float'
	| 'timestamptz'
	| 'uuid'
	| 'jsonb'
	| ArrayColumnType;

/**
 * How list columns (cluster_uuids, the per-frame counts, time_intervals, public_links) are typed: `jsonb` arrays
 * (default) or Postgres arrays, which Hasura returns as literal text such as `{a,b}` or `{{1.5,3},{5,7}}`.
 */
export type AiListFormat = 'json' | 'literal';

/** Raw output columns: content inline, or an object path served through presignS3. */
export type RawFile =
	| 'transcript.json'
	| 'transcript.srt'
	| 'transcript.txt'
	| 'transcript.vtt'
	| 'audio_classification.json'
	| 'processed.json'
	| 'vendor.json';

export interface ColumnDef {
	name: string;
	type: ColumnType;
	/** Generated on demand from the row's seed instead of being kept in memory. */
	heavy?: boolean;
	/** Raw output column and the file it becomes in 'paths' storage. */
	raw?: RawFile;
	/** A list column: its Postgres array type in the 'literal' list format. */
	list?: ArrayColumnType;
}

export type ViewKind = 'tasks' | 'matches' | 'refset' | 'speech' | 'ner';

/** Canonical (seed) view names; the 'live' naming renames two of them. */
export type CanonicalView =
	| 'face_tasks'
	| 'image_tasks'
	| 'face_matches'
	| 'image_matches'
	| 'refset_persons'
	| 'speech_tasks'
	| 'ner_tasks';

export const CANONICAL_VIEWS: readonly CanonicalView[] = [
	'face_tasks',
	'image_tasks',
	'face_matches',
	'image_matches',
	'refset_persons',
	'speech_tasks',
	'ner_tasks',
];

export type AiNaming = 'seed' | 'live';

export interface ViewDef {
	name: string;
	canonical: CanonicalView;
	kind: ViewKind;
	columns: ColumnDef[];
	/** Column that `touch()` moves forward (the "processed at" moment). */
	timeColumn: string;
}

const col = (name: string, type: ColumnType, extra: Partial<ColumnDef> = {}): ColumnDef => ({
	name,
	type,
	...extra,
});

function taskColumns(): ColumnDef[] {
	return [
		col('cluster_uuids', 'jsonb', { heavy: true, list: '_uuid' }),
		col('cp', 'String'),
		col('error', 'String'),
		col('external_id', 'String'),
		col('main_local_id', 'String'),
		col('media_object_id', 'String'),
		col('n_faces', 'Int'),
		col('n_faces_per_frame', 'jsonb', { heavy: true, list: '_int4' }),
		col('n_persons', 'Int'),
		col('n_persons_per_frame', 'jsonb', { heavy: true, list: '_int4' }),
		col('n_scenes', 'Int'),
		col('perc_frames_with_faces', 'Float'),
		col('pid', 'String'),
		col('processed_time', 'timestamptz'),
		col('status', 'String'),
		col('task_id', 'uuid'),
		col('title', 'String'),
	];
}

function matchColumns(): ColumnDef[] {
	return [
		col('cluster_uuid', 'uuid'),
		col('cp', 'String'),
		col('match_score', 'Float'),
		col('matched_time', 'timestamptz'),
		col('refset_person_id', 'uuid'),
		col('refset_person_name', 'String'),
		col('refset_person_wiki_id', 'String'),
		col('time_intervals', 'jsonb', { heavy: true, list: '_numeric' }),
	];
}

function refsetColumns(): ColumnDef[] {
	return [
		col('created_at', 'timestamptz'),
		col('description', 'String'),
		col('id', 'uuid'),
		col('label', 'String'),
		col('modified_at', 'timestamptz'),
		col('public_links', 'jsonb', { heavy: true, list: '_text' }),
		col('status', 'String'),
	];
}

function speechColumns(): ColumnDef[] {
	return [
		col('audio_classification_json', 'String', { heavy: true, raw: 'audio_classification.json' }),
		col('cp', 'String'),
		col('error', 'String'),
		col('external_id', 'String'),
		col('fragment_id', 'String'),
		col('main_local_id', 'String'),
		col('media_object_id', 'String'),
		col('pid', 'String'),
		col('processed_time', 'timestamptz'),
		col('statistics', 'String', { heavy: true }),
		col('status', 'String'),
		col('task_id', 'uuid'),
		col('title', 'String'),
		col('transcript_json', 'String', { heavy: true, raw: 'transcript.json' }),
		col('transcript_srt', 'String', { heavy: true, raw: 'transcript.srt' }),
		col('transcript_txt', 'String', { heavy: true, raw: 'transcript.txt' }),
		col('transcript_vtt', 'String', { heavy: true, raw: 'transcript.vtt' }),
	];
}

function nerColumns(vendorColumn: string): ColumnDef[] {
	return [
		col('cp', 'String'),
		col('error', 'String'),
		col(vendorColumn, 'String', { heavy: true, raw: 'vendor.json' }),
		col('fragment_id', 'String'),
		col('pid', 'String'),
		col('processed_json', 'String', { heavy: true, raw: 'processed.json' }),
		col('processed_time', 'timestamptz'),
		col('status', 'String'),
		col('task_id', 'uuid'),
	];
}

export interface Naming {
	views: Record<CanonicalView, string>;
	/** NER raw column of the entity-extraction vendor: `extractor_json` (seed) or `nerengine_json` (live). */
	vendorColumn: string;
	/** The vendor word used in file names and presignS3 fields (`extractor` / `nerengine`). */
	vendorWord: string;
}

export function namingFor(naming: AiNaming): Naming {
	const live = naming === 'live';
	return {
		views: {
			face_tasks: 'face_tasks',
			image_tasks: live ? 'face_image_tasks' : 'image_tasks',
			face_matches: 'face_matches',
			image_matches: live ? 'face_image_matches' : 'image_matches',
			refset_persons: 'refset_persons',
			speech_tasks: 'speech_tasks',
			ner_tasks: 'ner_tasks',
		},
		vendorColumn: live ? 'nerengine_json' : 'extractor_json',
		vendorWord: live ? 'nerengine' : 'extractor',
	};
}

export function viewDefinitions(naming: Naming, listFormat: AiListFormat = 'json'): ViewDef[] {
	const kindOf: Record<CanonicalView, ViewKind> = {
		face_tasks: 'tasks',
		image_tasks: 'tasks',
		face_matches: 'matches',
		image_matches: 'matches',
		refset_persons: 'refset',
		speech_tasks: 'speech',
		ner_tasks: 'ner',
	};
	return CANONICAL_VIEWS.map((canonical) => {
		const kind = kindOf[canonical];
		const columns =
			kind === 'tasks'
				? taskColumns()
				: kind === 'matches'
					? matchColumns()
					: kind === 'refset'
						? refsetColumns()
						: kind === 'speech'
							? speechColumns()
							: nerColumns(naming.vendorColumn);
		const timeColumn =
			kind === 'matches' ? 'matched_time' : kind === 'refset' ? 'modified_at' : 'processed_time';
		const typed =
			listFormat === 'literal'
				? columns.map((column) => (column.list ? { ...column, type: column.list } : column))
				: columns;
		return { name: naming.views[canonical], canonical, kind, columns: typed, timeColumn };
	});
}

/** File name of a raw column's object (`<task_id>/<file>`). */
export function rawFileName(raw: RawFile, naming: Naming): string {
	return raw === 'vendor.json' ? `${naming.vendorWord}.json` : raw;
}

/** A list as Postgres prints an array: `{a,"b c",NULL}`, nested lists as `{{1,2},{3,4}}`. */
export function toArrayLiteral(list: readonly unknown[]): string {
	return `{${list.map(arrayElement).join(',')}}`;
}

function arrayElement(value: unknown): string {
	if (value === null || value === undefined) return 'NULL';
	if (Array.isArray(value)) return toArrayLiteral(value);
	if (typeof value === 'number') return String(value);
	// Text and booleans as they are; an object (never in the seed data) as JSON rather than "[object Object]".
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	const bare = text !== '' && text.toUpperCase() !== 'NULL' && !/[\s{}",\\]/.test(text);
	return bare ? text : `"${text.replace(/["\\]/g, '\\$&')}"`;
}
