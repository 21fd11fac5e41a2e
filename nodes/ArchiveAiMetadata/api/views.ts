import {
	getNamedType,
	getNullableType,
	isInputObjectType,
	isListType,
	isObjectType,
} from 'graphql';
import type { GraphQLArgument, GraphQLField, GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { IDataObject, INode } from 'n8n-workflow';

import { readList, UnexpectedListError } from './lists';
import type { ListElement } from './lists';
import { parameterError } from '../../shared/n8n/params';

/**
 * The views of the AI metadata API as documented, and their live names. Published versions differ (`image_tasks`
 * vs `face_image_tasks`, the NER vendor column), so every name in a query comes from `resolveView`.
 */

/** Logical view names: the documented ones, which are also the documented root fields. */
export type AiViewKey =
	| 'face_tasks'
	| 'image_tasks'
	| 'face_matches'
	| 'image_matches'
	| 'refset_persons'
	| 'speech_tasks'
	| 'ner_tasks';

type AiViewKind = 'detectionTask' | 'match' | 'refsetPerson' | 'speechTask' | 'nerTask';

/** A raw output column that can be downloaded as a file (speech and NER tasks). */
export interface DownloadableFile {
	/** Seed column name; the NER vendor column is `extractor_json` here and resolved live. */
	column: string;
	displayName: string;
	extension: string;
	mimeType: string;
}

export interface AiViewDefinition {
	key: AiViewKey;
	/** Value of the node's `resource` parameter. */
	resource: string;
	/** Singular, for messages and option names, e.g. "Face Task". */
	displayName: string;
	kind: AiViewKind;
	/** Other root field names published versions use for the same view. */
	aliases: string[];
	/** Column identifying one record (Get), or undefined when the view has none (matches). */
	idColumn?: string;
	/** Columns that together identify a row: the tiebreaker that makes every sort order total. */
	uniqueKey: string[];
	/** When a row was produced or last changed (time filters, the trigger's cursor). */
	timeColumn: string;
	documentedColumns: string[];
	/** Columns holding JSON text that the node parses (documented names). */
	rawJsonColumns: string[];
	/** List columns (JSON arrays or Postgres array literals) and what their elements are. */
	listColumns: Record<string, ListElement>;
	/** The handful of columns most people want ("Simplify"). */
	simplifiedColumns: string[];
	/** Raw files the Download operation offers. */
	files: DownloadableFile[];
	/** Whether rows can be looked up by PID (directly, or through the task view's clusters for matches). */
	pidLookup: boolean;
	/** Task view whose `cluster_uuids` link a match view to PIDs. */
	clusterTaskView?: AiViewKey;
}

/** Seed name of the NER column holding the entity-extraction vendor's raw output. */
const DOCUMENTED_VENDOR_COLUMN = 'extractor_json';

const DETECTION_TASK_COLUMNS = [
	'cluster_uuids',
	'cp',
	'error',
	'external_id',
	'main_local_id',
	'media_object_id',
	'n_faces',
	'n_faces_per_frame',
	'n_persons',
	'n_persons_per_frame',
	'n_scenes',
	'perc_frames_with_faces',
	'pid',
	'processed_time',
	'status',
	'task_id',
	'title',
];

const MATCH_COLUMNS = [
	'cluster_uuid',
	'cp',
	'match_score',
	'matched_time',
	'refset_person_id',
	'refset_person_name',
	'refset_person_wiki_id',
	'time_intervals',
];

const TASK_SIMPLIFIED = ['task_id', 'pid', 'cp', 'status', 'processed_time', 'title'];
const MATCH_SIMPLIFIED = [
	'cluster_uuid',
	'cp',
	// The trigger needs it for its cursor, and it joins a match to its Reference-Set Person.
	'refset_person_id',
	'refset_person_name',
	'refset_person_wiki_id',
	'match_score',
	'matched_time',
];

/**
 * No match column is unique, and nothing says even a combination is: two matches of one cluster and person at
 * the same moment are possible. So matches are ordered by every column that can tell two rows apart, the list
 * column `time_intervals` last (only where the live schema lets it be ordered by).
 */
const MATCH_UNIQUE_KEY = [
	'cluster_uuid',
	'refset_person_id',
	'matched_time',
	'match_score',
	'refset_person_wiki_id',
	'refset_person_name',
	'cp',
	'time_intervals',
];

type ViewSpec = Pick<
	AiViewDefinition,
	'resource' | 'displayName' | 'kind' | 'documentedColumns' | 'simplifiedColumns'
> &
	Partial<
		Pick<
			AiViewDefinition,
			'aliases' | 'rawJsonColumns' | 'listColumns' | 'files' | 'clusterTaskView'
		>
	>;

/** A view's definition, with what follows from its kind: identifier, unique key, time column, PID lookup. */
function defineView(key: AiViewKey, spec: ViewSpec): AiViewDefinition {
	const match = spec.kind === 'match';
	const person = spec.kind === 'refsetPerson';
	const idColumn = person ? 'id' : 'task_id';
	return {
		aliases: [],
		rawJsonColumns: [],
		listColumns: {},
		files: [],
		...spec,
		key,
		idColumn: match ? undefined : idColumn,
		uniqueKey: match ? MATCH_UNIQUE_KEY : [idColumn],
		timeColumn: match ? 'matched_time' : person ? 'modified_at' : 'processed_time',
		pidLookup: !person,
	};
}

const JSON_MIME = 'application/json';

function file(
	column: string,
	displayName: string,
	extension = 'json',
	mimeType = JSON_MIME,
): DownloadableFile {
	return { column, displayName, extension, mimeType };
}

const DETECTION_TASK = {
	kind: 'detectionTask',
	documentedColumns: DETECTION_TASK_COLUMNS,
	listColumns: {
		cluster_uuids: 'text',
		n_faces_per_frame: 'number',
		n_persons_per_frame: 'number',
	},
	simplifiedColumns: [...TASK_SIMPLIFIED, 'n_faces', 'n_persons', 'error'],
} as const satisfies Partial<ViewSpec>;

const MATCH = {
	kind: 'match',
	documentedColumns: MATCH_COLUMNS,
	listColumns: { time_intervals: 'number' },
	simplifiedColumns: MATCH_SIMPLIFIED,
} as const satisfies Partial<ViewSpec>;

const VIEW_SPECS: Record<AiViewKey, ViewSpec> = {
	face_tasks: { resource: 'faceTask', displayName: 'Face Task', ...DETECTION_TASK },
	image_tasks: {
		resource: 'imageTask',
		displayName: 'Image Task',
		aliases: ['face_image_tasks'],
		...DETECTION_TASK,
	},
	face_matches: {
		resource: 'faceMatch',
		displayName: 'Face Match',
		clusterTaskView: 'face_tasks',
		...MATCH,
	},
	image_matches: {
		resource: 'imageMatch',
		displayName: 'Image Match',
		clusterTaskView: 'image_tasks',
		aliases: ['face_image_matches'],
		...MATCH,
	},
	refset_persons: {
		resource: 'refsetPerson',
		displayName: 'Reference-Set Person',
		kind: 'refsetPerson',
		documentedColumns: [
			'created_at',
			'description',
			'id',
			'label',
			'modified_at',
			'public_links',
			'status',
		],
		listColumns: { public_links: 'text' },
		simplifiedColumns: ['id', 'label', 'description', 'status', 'modified_at'],
	},
	speech_tasks: {
		resource: 'speechTask',
		displayName: 'Speech Task',
		kind: 'speechTask',
		documentedColumns: [
			'audio_classification_json',
			'cp',
			'error',
			'external_id',
			'fragment_id',
			'main_local_id',
			'media_object_id',
			'pid',
			'processed_time',
			'statistics',
			'status',
			'task_id',
			'title',
			'transcript_json',
			'transcript_srt',
			'transcript_txt',
			'transcript_vtt',
		],
		rawJsonColumns: ['transcript_json', 'audio_classification_json', 'statistics'],
		simplifiedColumns: [...TASK_SIMPLIFIED, 'fragment_id', 'error', 'transcript_txt'],
		files: [
			file('transcript_srt', 'Transcript (SRT)', 'srt', 'application/x-subrip'),
			file('transcript_vtt', 'Transcript (WebVTT)', 'vtt', 'text/vtt'),
			file('transcript_txt', 'Transcript (Plain Text)', 'txt', 'text/plain'),
			file('transcript_json', 'Transcript (Raw JSON)'),
			file('audio_classification_json', 'Audio Classification (Raw JSON)'),
		],
	},
	ner_tasks: {
		resource: 'nerTask',
		displayName: 'NER Task',
		kind: 'nerTask',
		documentedColumns: [
			'cp',
			'error',
			DOCUMENTED_VENDOR_COLUMN,
			'fragment_id',
			'pid',
			'processed_json',
			'processed_time',
			'status',
			'task_id',
		],
		rawJsonColumns: ['processed_json', DOCUMENTED_VENDOR_COLUMN],
		simplifiedColumns: ['task_id', 'pid', 'cp', 'fragment_id', 'status', 'processed_time', 'error'],
		files: [
			file('processed_json', 'Processed Output (Raw JSON)'),
			file(DOCUMENTED_VENDOR_COLUMN, 'Extraction Engine Output (Raw JSON)'),
		],
	},
};

export const AI_VIEWS = Object.fromEntries(
	Object.entries(VIEW_SPECS).map(([key, spec]) => [key, defineView(key as AiViewKey, spec)]),
) as Readonly<Record<AiViewKey, AiViewDefinition>>;

export const AI_VIEW_KEYS = Object.keys(AI_VIEWS) as AiViewKey[];

export function viewByResource(resource: string): AiViewDefinition | undefined {
	return AI_VIEW_KEYS.map((key) => AI_VIEWS[key]).find((view) => view.resource === resource);
}

/** The view a resource parameter names; anything else is an error before any request. */
export function viewKeyOf(ctx: { getNode(): INode }, resource: string): AiViewKey {
	const view = viewByResource(resource);
	if (!view) {
		throw parameterError(ctx, 0, 'Resource', `unknown resource ${JSON.stringify(resource)}`);
	}
	return view.key;
}

/** A view with the names the live API uses (or the documented ones, when resolved without a schema). */
export interface ResolvedView {
	definition: AiViewDefinition;
	/** Root field to query, e.g. `image_tasks` or `face_image_tasks`. */
	rootField: string;
	/** `<rootField>_aggregate` when the role may aggregate, else undefined. */
	aggregateField?: string;
	columns: string[];
	/** Named GraphQL type per column, e.g. `uuid`, `timestamptz`, `jsonb`, `String`. */
	columnTypes: Record<string, string>;
	/** Columns returned parsed from JSON text (live names; includes the NER vendor column). */
	rawJsonColumns: string[];
	/** NER only: live name of the vendor's raw output column (documented: `extractor_json`). */
	vendorColumn?: string;
	idColumn?: string;
	/** Tiebreaker columns present in the live view (list columns only where the schema lets them be ordered). */
	uniqueKey: string[];
	timeColumn: string;
	simplifiedColumns: string[];
	/** Variable types of the root field's arguments, e.g. `where` -> `face_tasks_bool_exp`. */
	argumentTypes: Record<string, string>;
	files: DownloadableFile[];
	/** True when the rows were read from a live schema, false for the documented fallback. */
	live: boolean;
}

export class ViewNotFoundError extends Error {
	constructor(readonly definition: AiViewDefinition) {
		super(
			`The API does not expose the ${definition.displayName} view (looked for ${[definition.key, ...definition.aliases].join(', ')})`,
		);
		this.name = 'ViewNotFoundError';
	}
}

function queryFields(schema: GraphQLSchema): Record<string, GraphQLField<unknown, unknown>> {
	return schema.getQueryType()?.getFields() ?? {};
}

/** Live root field name of a view: the documented name, else a known alias, else undefined. */
function findRootField(schema: GraphQLSchema, definition: AiViewDefinition): string | undefined {
	const fields = queryFields(schema);
	return [definition.key, ...definition.aliases].find((candidate) => {
		const type = fields[candidate]?.type;
		return type && isObjectType(getNamedType(type)) && isListType(getNullableType(type));
	});
}

/** The NER vendor column: `extractor_json` as documented, in reality the `*_json` named after the vendor. */
export function findVendorColumn(columns: string[]): string | undefined {
	if (columns.includes(DOCUMENTED_VENDOR_COLUMN)) return DOCUMENTED_VENDOR_COLUMN;
	return columns.find((column) => column.endsWith('_json') && column !== 'processed_json');
}

function scalarColumns(rowType: GraphQLObjectType): Record<string, string> {
	const types: Record<string, string> = {};
	for (const [fieldName, field] of Object.entries(rowType.getFields())) {
		const named = getNamedType(field.type);
		// Scalars and enums are columns; object types would be relationships, which need their own selection.
		if (!isObjectType(named)) types[fieldName] = named.name;
	}
	return types;
}

/** What a resolved view takes from its columns: the definition's names mapped to the live ones and present. */
function withColumns(
	definition: AiViewDefinition,
	columns: string[],
	vendorColumn: string | undefined,
	orderable: (column: string) => boolean,
): Omit<ResolvedView, 'rootField' | 'aggregateField' | 'columnTypes' | 'argumentTypes' | 'live'> {
	const present = (column: string) => columns.includes(column);
	// Only the NER vendor column has a live name of its own.
	const live = (column: string) =>
		column === DOCUMENTED_VENDOR_COLUMN && vendorColumn ? vendorColumn : column;
	const idColumn = definition.idColumn;
	return {
		definition,
		columns,
		vendorColumn,
		idColumn: idColumn && present(idColumn) ? idColumn : undefined,
		timeColumn: definition.timeColumn,
		rawJsonColumns: definition.rawJsonColumns.map(live).filter(present),
		uniqueKey: definition.uniqueKey.filter((column) => present(column) && orderable(column)),
		simplifiedColumns: definition.simplifiedColumns.map(live).filter(present),
		files: definition.files
			.map((file) => ({ ...file, column: live(file.column) }))
			.filter((file) => present(file.column)),
	};
}

/** The root field's argument types as the documented schema names them. */
export function documentedArgumentTypes(rootField: string): Record<string, string> {
	return {
		where: `${rootField}_bool_exp`,
		order_by: `[${rootField}_order_by!]`,
		limit: 'Int',
		offset: 'Int',
	};
}

/** A view with the documented names, for when the schema cannot be read; `rootField` when the server uses an alias. */
export function documentedView(key: AiViewKey, rootField: string = key): ResolvedView {
	const definition = AI_VIEWS[key];
	const vendorColumn = definition.kind === 'nerTask' ? DOCUMENTED_VENDOR_COLUMN : undefined;
	// Whether a list column can be ordered by is unknown without the schema.
	const orderable = (column: string) => !(column in definition.listColumns);
	return {
		...withColumns(definition, [...definition.documentedColumns], vendorColumn, orderable),
		rootField,
		aggregateField: `${rootField}_aggregate`,
		columnTypes: {},
		argumentTypes: documentedArgumentTypes(rootField),
		live: false,
	};
}

/** Reads a view's live names from the schema; ViewNotFoundError when the account cannot see it. */
export function resolveView(schema: GraphQLSchema, key: AiViewKey): ResolvedView {
	const definition = AI_VIEWS[key];
	const rootField = findRootField(schema, definition);
	if (!rootField) throw new ViewNotFoundError(definition);
	const field = queryFields(schema)[rootField];
	const columnTypes = scalarColumns(getNamedType(field.type) as GraphQLObjectType);
	const columns = Object.keys(columnTypes);
	const vendorColumn = definition.kind === 'nerTask' ? findVendorColumn(columns) : undefined;
	const orderable = orderableColumns(field.args);
	const aggregateName = `${rootField}_aggregate`;
	return {
		...withColumns(definition, columns, vendorColumn, (column) => orderable?.has(column) ?? true),
		rootField,
		aggregateField: queryFields(schema)[aggregateName] ? aggregateName : undefined,
		columnTypes,
		argumentTypes: Object.fromEntries(
			field.args.map((argument) => [argument.name, argument.type.toString()]),
		),
		live: true,
	};
}

/** Columns the view's `order_by` input type offers, or undefined when the view takes no order_by. */
function orderableColumns(args: readonly GraphQLArgument[]): Set<string> | undefined {
	const orderBy = args.find((argument) => argument.name === 'order_by');
	const type = orderBy ? getNamedType(orderBy.type) : undefined;
	return type && isInputObjectType(type) ? new Set(Object.keys(type.getFields())) : undefined;
}

export function resolveViewOrDocumented(
	schema: GraphQLSchema | undefined,
	key: AiViewKey,
): ResolvedView {
	const live = schema && findRootField(schema, AI_VIEWS[key]);
	return live ? resolveView(schema, key) : documentedView(key);
}

/** The stable sort: the user's columns first, then the view's unique key for whatever they did not name. */
export function stableOrderBy(
	view: ResolvedView,
	userOrder: Array<Record<string, string>> = [],
): Array<Record<string, string>> {
	const named = new Set(userOrder.flatMap((entry) => Object.keys(entry)));
	const tiebreakers = view.uniqueKey
		.filter((column) => !named.has(column))
		.map((column) => ({ [column]: 'asc' }));
	return [...userOrder, ...tiebreakers];
}

/** Text that is JSON (an object or array) parsed; anything else (an object path, plain text) as it was. */
export function parseJsonText(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (!text.startsWith('{') && !text.startsWith('[')) return value;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return value;
	}
}

/** A list column's value as an array (or null); a value that is no list in either form is an error. */
export function listValue(view: ResolvedView, column: string, value: unknown): unknown[] | null {
	const list = readList(value, view.definition.listColumns[column] ?? 'text');
	if (list === undefined) throw new UnexpectedListError(column, view.rootField, value);
	return list;
}

/**
 * A row as output: list columns as arrays, raw JSON columns parsed unless kept raw. `inPlace`: the row is this
 * output item's alone and is shaped where it is, saving a copy of every row of a large read.
 */
export function shapeRecord(
	view: ResolvedView,
	row: IDataObject,
	options: { keepRawJson?: boolean; inPlace?: boolean } = {},
): IDataObject {
	const shaped: IDataObject = options.inPlace ? row : { ...row };
	for (const column of Object.keys(view.definition.listColumns)) {
		if (column in shaped) shaped[column] = listValue(view, column, shaped[column]);
	}
	if (options.keepRawJson) return shaped;
	for (const column of view.rawJsonColumns) {
		if (column in shaped) shaped[column] = parseJsonText(shaped[column]) as IDataObject[string];
	}
	return shaped;
}
