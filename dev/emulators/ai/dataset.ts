/**
 * Deterministic AI metadata: `rows` rows per view, derived from (seed, view, row index). Cheap columns are kept in
 * memory; heavy ones (transcripts, raw engine output, lists) are regenerated on demand from the row's own seed.
 */
import { FAMILY_NAMES, GIVEN_NAMES, aiContentPartnerIds } from '../core/shared';
import { LOWERCASE, Random } from '../core/random';
import { formatTimestamptz, parseTimestamptz } from '../core/timestamps';
import {
	REFSET_DESCRIPTIONS,
	TASK_ERRORS,
	audioClassificationJson,
	nerOutputs,
	segmentsFor,
	speechStatistics,
	titleFor,
	toSrt,
	toTxt,
	toVtt,
	transcriptJson,
} from './content';
import {
	type AiListFormat,
	type AiNaming,
	type CanonicalView,
	type ColumnDef,
	type Naming,
	type RawFile,
	type ViewDef,
	namingFor,
	rawFileName,
	toArrayLiteral,
	viewDefinitions,
} from './model';

/** One stored row: visible columns plus hidden `_` fields used for lazy generation. */
export interface AiRow {
	readonly _index: number;
	[column: string]: unknown;
}

export type AiRecord = Record<string, unknown>;

export type RawStorage = 'inline' | 'paths';

/** What `insert()` adds: new rows that become visible now, with any time (e.g. behind a poller's watermark). */
export interface InsertOptions {
	/** How many rows; default 1. */
	count?: number;
	/** Time column value of every new row (ISO 8601); default: one second past the current maximum. */
	at?: string;
	/**
	 * Column values set on every new row, timestamps as ISO text: a title with `%`, another row's key columns to
	 * make a tie, or a value of the wrong shape in a list column (served as it is, like a misconfigured server).
	 */
	values?: Record<string, unknown>;
}

export interface AiDatasetOptions {
	rows: number;
	seed: number;
	naming: AiNaming;
	rawStorage: RawStorage;
	/** List columns as jsonb arrays (default) or Postgres arrays rendered as literals `{a,b}`. */
	listFormat?: AiListFormat;
	/** Rows tied on every order_by column come in a new order on each request (see `AiDataset.unstableTies`). */
	unstableTies?: boolean;
}

const MICROS = 1_000_000;
/** Data spans two years, 2023-07-01 .. 2025-07-01 (UTC). */
const START_MICROS = Date.UTC(2023, 6, 1) * 1000;
const SPAN_SECONDS = 2 * 365 * 24 * 3600;
const HEAVY_CACHE_LIMIT = 4000;

export class AiView {
	readonly columnsByName: Map<string, ColumnDef>;
	/** Bumped by `touch()`; sorted-order caches are keyed by it. */
	version = 0;
	readonly sortCache = new Map<string, Uint32Array>();

	constructor(
		readonly def: ViewDef,
		readonly rows: AiRow[],
	) {
		this.columnsByName = new Map(def.columns.map((column) => [column.name, column]));
	}

	get name(): string {
		return this.def.name;
	}

	invalidate(): void {
		this.version++;
		this.sortCache.clear();
	}
}

export interface FileContent {
	content: string;
	contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
	json: 'application/json',
	srt: 'application/x-subrip',
	vtt: 'text/vtt; charset=utf-8',
	txt: 'text/plain; charset=utf-8',
};

export class AiDataset {
	readonly naming: Naming;
	readonly rowsPerView: number;
	readonly seed: number;
	readonly rawStorage: RawStorage;
	/**
	 * Postgres guarantees no order among rows equal on every ORDER BY column: another LIMIT/OFFSET can bring them
	 * in another order. When true, each request orders such ties anew (seeded by a request count), so a client
	 * paging without a total order skips or repeats rows, as it may against the real database. Default false:
	 * ties keep the default order.
	 */
	readonly unstableTies: boolean;
	/** Bumped per ordered select when ties are unstable. */
	tieRound = 0;
	private readonly views = new Map<string, AiView>();
	private readonly byCanonical = new Map<CanonicalView, AiView>();
	/** Keyed by row index * 16 + the view's ordinal: a number key keeps this hot lookup cheap. */
	private readonly heavyCache = new Map<number, Record<string, unknown>>();
	private readonly viewOrdinals = new Map<CanonicalView, number>();
	private readonly taskIdIndex = new Map<string, Map<string, number>>();
	private readonly cpIds: string[];
	private readonly pidPoolSize: number;
	private touchCount = 0;
	/**
	 * Names the state of the data: a new value at every change (`touch()`, `insert()`, `withhold()`), so answers
	 * rendered before are stale. `release()` after nothing else changed brings back the value from before
	 * `withhold()`: the data is the same again, and so are the answers rendered for it.
	 */
	generation = 0;
	private generations = 0;
	/** Rows `withhold()` took out of a view (by canonical name), and the generation to return to on release. */
	private readonly withheld = new Map<
		CanonicalView,
		{ rows: AiRow[]; generationBefore: number; generationWithheld: number }
	>();

	constructor(options: AiDatasetOptions) {
		this.naming = namingFor(options.naming);
		this.rowsPerView = options.rows;
		this.seed = options.seed;
		this.rawStorage = options.rawStorage;
		this.unstableTies = options.unstableTies ?? false;
		this.cpIds = aiContentPartnerIds(options.seed);
		// Fewer pids than rows, so several rows (and views) share a pid.
		this.pidPoolSize = Math.max(5, Math.floor(options.rows * 0.6));
		const defs = viewDefinitions(this.naming, options.listFormat);
		// Matches reference task clusters and refset persons, so those views are generated first.
		const generationOrder = [...defs].sort(
			(a, b) => Number(a.kind === 'matches') - Number(b.kind === 'matches'),
		);
		for (const def of generationOrder) this.generateView(def);
		for (const def of defs) this.views.set(def.name, this.byCanonical.get(def.canonical)!);
	}

	/** View names as exposed by the API (depend on `aiNaming`). */
	viewNames(): string[] {
		return [...this.views.keys()];
	}

	view(name: string): AiView {
		const view = this.views.get(name) ?? this.byCanonical.get(name as CanonicalView);
		if (!view) throw new Error(`Unknown AI view "${name}"`);
		return view;
	}

	/** Stored rows in the default (unordered) order. */
	rows(viewName: string): readonly AiRow[] {
		return this.view(viewName).rows;
	}

	/** Internal value of a column (timestamps as epoch microseconds). */
	value(view: AiView, row: AiRow, column: ColumnDef): unknown {
		if (!column.heavy) return row[column.name] ?? null;
		const overrides = row._overrides as Record<string, unknown> | undefined;
		if (overrides && column.name in overrides) return overrides[column.name];
		const heavy = this.heavyValues(view, row);
		const value = heavy[column.name] ?? null;
		if (column.raw && value !== null && this.rawStorage === 'paths') {
			return `${row.task_id as string}/${rawFileName(column.raw, this.naming)}`;
		}
		return value;
	}

	/** A row exactly as the API returns it (all columns, or the listed ones). */
	record(viewName: string, row: AiRow, columns?: string[]): AiRecord {
		const view = this.view(viewName);
		const record: AiRecord = {};
		for (const name of columns ?? view.def.columns.map((column) => column.name)) {
			const column = view.columnsByName.get(name);
			if (!column) throw new Error(`Unknown column ${viewName}.${name}`);
			const value = this.value(view, row, column);
			record[name] = this.rendered(column, value);
		}
		return record;
	}

	/** A stored value as the API renders it: timestamps as text, Postgres array columns as literals. */
	private rendered(column: ColumnDef, value: unknown): unknown {
		if (column.type === 'timestamptz' && typeof value === 'number') return formatTimestamptz(value);
		if (column.list && column.type !== 'jsonb' && Array.isArray(value))
			return toArrayLiteral(value);
		return value;
	}

	/** Every row of a view as API records, in default order. */
	records(viewName: string, columns?: string[]): AiRecord[] {
		return this.view(viewName).rows.map((row) => this.record(viewName, row, columns));
	}

	/**
	 * Marks `count` rows as newly processed: their time column (processed_time / matched_time / modified_at)
	 * moves past the current maximum, one second apart. Returns the touched rows as API records, oldest first.
	 */
	touch(viewName: string, count: number, options: { at?: string | Date } = {}): AiRecord[] {
		const view = this.view(viewName);
		this.assertNotWithheld(view, 'touch');
		const timeColumn = view.def.timeColumn;
		const candidates = view.rows.filter((row) => row.status !== 'failed');
		const rng = Random.for(this.seed, `touch:${view.def.canonical}`, this.touchCount++);
		const chosen = rng.shuffle(candidates.slice()).slice(0, Math.min(count, candidates.length));
		const base =
			options.at !== undefined
				? new Date(options.at).getTime() * 1000
				: this.maxTime(view, timeColumn);
		const baseSecond = Math.floor(base / MICROS) * MICROS;
		chosen.forEach((row, k) => {
			row[timeColumn] = baseSecond + (k + 1) * MICROS + 250_000;
		});
		view.invalidate();
		this.changed();
		return chosen.map((row) => this.record(view.name, row));
	}

	/**
	 * Adds `count` freshly generated rows (new ids, same generator as the initial rows) that all carry the time
	 * `at` and the given `values`. Models rows that commit late, behind a poller's watermark. Returns them as
	 * API records.
	 */
	insert(viewName: string, options: InsertOptions = {}): AiRecord[] {
		const view = this.view(viewName);
		this.assertNotWithheld(view, 'insert');
		const timeColumn = view.def.timeColumn;
		const at =
			options.at === undefined
				? this.maxTime(view, timeColumn) + MICROS
				: parseTimestamptz(options.at);
		if (at === undefined) throw new Error(`insert: "at" is not a timestamp: ${options.at}`);
		const overrides = this.storedValues(view, options.values ?? {});
		const added: AiRow[] = [];
		for (let k = 0; k < (options.count ?? 1); k++) {
			const row = this.generateRow(view.def, view.rows.length);
			Object.assign(row, { [timeColumn]: at }, overrides);
			view.rows.push(row);
			added.push(row);
		}
		this.taskIdIndex.delete(view.name);
		view.invalidate();
		this.changed();
		return added.map((row) => this.record(view.name, row));
	}

	/**
	 * Takes every row of a view out of the answers, as if none had been committed yet (a benchmark lets a poller's
	 * first poll find nothing, then `release()`s them at once). `touch()` and `insert()` refuse a withheld view.
	 * Returns how many rows were withheld.
	 */
	withhold(viewName: string): number {
		const view = this.view(viewName);
		if (this.withheld.has(view.def.canonical))
			throw new Error(`withhold: ${view.name} is withheld already`);
		const generationBefore = this.generation;
		const rows = view.rows.splice(0);
		this.taskIdIndex.delete(view.name);
		view.invalidate();
		this.changed();
		this.withheld.set(view.def.canonical, {
			rows,
			generationBefore,
			generationWithheld: this.generation,
		});
		return rows.length;
	}

	/** Puts the rows `withhold()` took back, in their order; they are in every answer from now on. Returns how many. */
	release(viewName: string): number {
		const view = this.view(viewName);
		const entry = this.withheld.get(view.def.canonical);
		if (!entry) throw new Error(`release: ${view.name} is not withheld`);
		this.withheld.delete(view.def.canonical);
		for (const row of entry.rows) view.rows.push(row);
		this.taskIdIndex.delete(view.name);
		view.invalidate();
		// Nothing else changed meanwhile: the data is what it was before withhold(), answers rendered then apply again.
		if (this.generation === entry.generationWithheld) this.generation = entry.generationBefore;
		else this.changed();
		return entry.rows.length;
	}

	/** Whether some view's rows are withheld (answers then show a passing state, not worth storing). */
	get withholding(): boolean {
		return this.withheld.size > 0;
	}

	private changed(): void {
		this.generations++;
		this.generation = this.generations;
	}

	private assertNotWithheld(view: AiView, operation: string): void {
		if (this.withheld.has(view.def.canonical))
			throw new Error(`${operation}: ${view.name} is withheld; release() it first`);
	}

	/** `values` as rows store them: timestamps in microseconds, heavy (generated) columns under `_overrides`. */
	private storedValues(view: AiView, values: Record<string, unknown>): Record<string, unknown> {
		const stored: Record<string, unknown> = {};
		const overrides: Record<string, unknown> = {};
		for (const [name, value] of Object.entries(values)) {
			const column = view.columnsByName.get(name);
			if (!column) throw new Error(`insert: ${view.name} has no column "${name}"`);
			if (column.heavy) overrides[name] = value;
			else
				stored[name] =
					column.type === 'timestamptz' && typeof value === 'string'
						? parseTimestamptz(value)
						: value;
		}
		if (Object.keys(overrides).length > 0) stored._overrides = overrides;
		return stored;
	}

	/** Content of a raw-output object path `<task_id>/<file>`, as served by presigned URLs. */
	fileContent(path: string): FileContent | undefined {
		const match = /^([0-9a-f-]{36})\/([A-Za-z_.]+)$/.exec(path);
		if (!match) return undefined;
		const [, taskId, fileName] = match;
		for (const canonical of ['speech_tasks', 'ner_tasks'] as const) {
			const view = this.byCanonical.get(canonical);
			const index = view ? this.taskIds(view).get(taskId) : undefined;
			if (!view || index === undefined) continue;
			const column = view.def.columns.find(
				(candidate) => candidate.raw && rawFileName(candidate.raw, this.naming) === fileName,
			);
			const content = column ? this.heavyValues(view, view.rows[index])[column.name] : undefined;
			if (typeof content !== 'string') return undefined;
			const extension = fileName.slice(fileName.lastIndexOf('.') + 1);
			return { content, contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream' };
		}
		return undefined;
	}

	/** Raw columns by file kind, for presignS3. */
	rawColumns(): Array<{ column: string; raw: RawFile }> {
		const out: Array<{ column: string; raw: RawFile }> = [];
		for (const view of this.byCanonical.values()) {
			for (const column of view.def.columns)
				if (column.raw) out.push({ column: column.name, raw: column.raw });
		}
		return out;
	}

	private taskIds(view: AiView): Map<string, number> {
		let index = this.taskIdIndex.get(view.name);
		if (!index) {
			index = new Map(view.rows.map((row, i) => [row.task_id as string, i]));
			this.taskIdIndex.set(view.name, index);
		}
		return index;
	}

	private maxTime(view: AiView, column: string): number {
		let max = START_MICROS;
		for (const row of view.rows) {
			const value = row[column];
			if (typeof value === 'number' && value > max) max = value;
		}
		return max;
	}

	private generateView(def: ViewDef): void {
		const rows = new Array<AiRow>(this.rowsPerView);
		for (let index = 0; index < this.rowsPerView; index++)
			rows[index] = this.generateRow(def, index);
		this.byCanonical.set(def.canonical, new AiView(def, rows));
	}

	private generateRow(def: ViewDef, index: number): AiRow {
		const rng = Random.for(this.seed, def.canonical, index);
		switch (def.kind) {
			case 'tasks':
				return this.taskRow(rng, index);
			case 'matches':
				return this.matchRow(
					rng,
					index,
					def.canonical === 'face_matches' ? 'face_tasks' : 'image_tasks',
				);
			case 'refset':
				return this.refsetRow(rng, index);
			case 'speech':
				return this.speechRow(rng, index);
			case 'ner':
				return this.nerRow(rng, index);
		}
	}

	private pid(rng: Random): string {
		return Random.for(this.seed, 'pid', rng.int(0, this.pidPoolSize - 1)).chars(LOWERCASE, 10);
	}

	private time(rng: Random): number {
		const micros = rng.chance(0.5) ? rng.int(0, 999_999) : 0;
		return START_MICROS + rng.int(0, SPAN_SECONDS) * MICROS + micros;
	}

	private failed(rng: Random): boolean {
		return rng.chance(0.08);
	}

	private taskRow(rng: Random, index: number): AiRow {
		const taskId = rng.uuid();
		const failed = this.failed(rng);
		const nPersons = failed ? null : rng.int(0, 12);
		const nFaces = nPersons === null ? null : nPersons + rng.int(0, 30);
		return {
			_index: index,
			_clusters: Math.max(1, nPersons ?? 0),
			cp: rng.pick(this.cpIds),
			error: failed ? rng.pick(TASK_ERRORS) : null,
			external_id: rng.chance(0.7) ? `EXT-${rng.int(100000, 999999)}` : null,
			main_local_id: rng.chance(0.5) ? `ML${rng.int(10000, 99999)}` : null,
			media_object_id: rng.hex(32),
			n_faces: nFaces,
			n_persons: nPersons,
			n_scenes: failed ? null : rng.int(1, 40),
			perc_frames_with_faces: failed ? null : rng.float(0, 100, 2),
			pid: this.pid(rng),
			processed_time: this.time(rng),
			status: failed ? 'failed' : 'succeeded',
			task_id: taskId,
			title: titleFor(rng),
		};
	}

	private clusterUuid(taskView: CanonicalView, taskIndex: number, cluster: number): string {
		return Random.for(this.seed, `${taskView}:cluster`, taskIndex, cluster).uuid();
	}

	private matchRow(rng: Random, index: number, taskView: CanonicalView): AiRow {
		const tasks = this.byCanonical.get(taskView)!.rows;
		let task = tasks[rng.int(0, tasks.length - 1)];
		for (let attempt = 0; attempt < 5 && task.status === 'failed'; attempt++)
			task = tasks[rng.int(0, tasks.length - 1)];
		const person = this.byCanonical.get('refset_persons')!.rows;
		const refset = person[rng.int(0, person.length - 1)];
		return {
			_index: index,
			_task: task._index,
			cluster_uuid: this.clusterUuid(
				taskView,
				task._index,
				rng.int(0, (task._clusters as number) - 1),
			),
			cp: task.cp,
			match_score: rng.float(0.5, 1, 4),
			matched_time:
				(task.processed_time as number) + rng.int(1, 600) * MICROS + rng.int(0, 999_999),
			refset_person_id: refset.id,
			refset_person_name: refset.label,
			refset_person_wiki_id: refset._wiki,
		};
	}

	private refsetRow(rng: Random, index: number): AiRow {
		const created = this.time(rng);
		return {
			_index: index,
			_wiki: `Q${rng.int(1000, 99_999_999)}`,
			created_at: created,
			description: rng.pick(REFSET_DESCRIPTIONS),
			id: rng.uuid(),
			label: `${rng.pick(GIVEN_NAMES)} ${rng.pick(FAMILY_NAMES)}`,
			modified_at: created + rng.int(0, 90 * 24 * 3600) * MICROS,
			status: rng.chance(0.9) ? 'active' : 'inactive',
		};
	}

	private speechRow(rng: Random, index: number): AiRow {
		const failed = this.failed(rng);
		return {
			_index: index,
			cp: rng.pick(this.cpIds),
			error: failed ? rng.pick(TASK_ERRORS) : null,
			external_id: rng.chance(0.7) ? `EXT-${rng.int(100000, 999999)}` : null,
			fragment_id: rng.hex(40),
			main_local_id: rng.chance(0.5) ? `ML${rng.int(10000, 99999)}` : null,
			media_object_id: rng.hex(32),
			pid: this.pid(rng),
			processed_time: this.time(rng),
			status: failed ? 'failed' : 'succeeded',
			task_id: rng.uuid(),
			title: titleFor(rng),
		};
	}

	private nerRow(rng: Random, index: number): AiRow {
		const failed = this.failed(rng);
		return {
			_index: index,
			cp: rng.pick(this.cpIds),
			error: failed ? rng.pick(TASK_ERRORS) : null,
			fragment_id: rng.hex(40),
			pid: this.pid(rng),
			processed_time: this.time(rng),
			status: failed ? 'failed' : 'succeeded',
			task_id: rng.uuid(),
		};
	}

	/** Heavy columns of one row (inline content), regenerated from the row's own seed and cached briefly. */
	private heavyValues(view: AiView, row: AiRow): Record<string, unknown> {
		const key = row._index * 16 + this.viewOrdinal(view.def.canonical);
		const cached = this.heavyCache.get(key);
		if (cached) return cached;
		const values = this.generateHeavy(view.def, row);
		if (this.heavyCache.size >= HEAVY_CACHE_LIMIT)
			this.heavyCache.delete(this.heavyCache.keys().next().value as number);
		this.heavyCache.set(key, values);
		return values;
	}

	private viewOrdinal(view: CanonicalView): number {
		let ordinal = this.viewOrdinals.get(view);
		if (ordinal === undefined) {
			ordinal = this.viewOrdinals.size;
			if (ordinal >= 16) throw new Error('heavy value cache keys hold at most 16 views');
			this.viewOrdinals.set(view, ordinal);
		}
		return ordinal;
	}

	private generateHeavy(def: ViewDef, row: AiRow): Record<string, unknown> {
		const rng = Random.for(this.seed, `${def.canonical}:heavy`, row._index);
		const failed = row.status === 'failed';
		switch (def.kind) {
			case 'tasks': {
				if (failed) return {};
				const frames = rng.int(5, 12);
				const perFrame = (max: number) =>
					Array.from({ length: frames }, () => rng.int(0, Math.max(0, Math.min(max, 8))));
				return {
					cluster_uuids: Array.from({ length: row._clusters as number }, (_, k) =>
						this.clusterUuid(def.canonical, row._index, k),
					),
					n_faces_per_frame: perFrame(row.n_faces as number),
					n_persons_per_frame: perFrame(row.n_persons as number),
				};
			}
			case 'matches': {
				const intervals: number[][] = [];
				let cursor = rng.float(0, 60, 1);
				for (let i = rng.int(1, 4); i > 0; i--) {
					const end = Math.round((cursor + rng.float(0.5, 20, 1)) * 10) / 10;
					intervals.push([cursor, end]);
					cursor = Math.round((end + rng.float(1, 120, 1)) * 10) / 10;
				}
				return { time_intervals: intervals };
			}
			case 'refset': {
				const links = [`https://www.wikidata.org/wiki/${row._wiki as string}`];
				if (rng.chance(0.6))
					links.push(
						`https://nl.wikipedia.org/wiki/${encodeURIComponent(String(row.label).replace(/ /g, '_'))}`,
					);
				return { public_links: links };
			}
			case 'speech': {
				if (failed) return {};
				const segments = segmentsFor(rng);
				const duration = segments[segments.length - 1].end;
				return {
					audio_classification_json: audioClassificationJson(rng, duration),
					statistics: speechStatistics(rng, segments),
					transcript_json: transcriptJson(segments, rng),
					transcript_srt: toSrt(segments),
					transcript_txt: toTxt(segments),
					transcript_vtt: toVtt(segments),
				};
			}
			case 'ner': {
				if (failed) return {};
				const { processed, vendor } = nerOutputs(rng);
				return { processed_json: processed, [this.naming.vendorColumn]: vendor };
			}
		}
	}
}
