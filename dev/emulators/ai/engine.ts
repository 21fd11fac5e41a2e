/**
 * Hasura v2 query semantics over the in-memory views: `where` (bool_exp), `order_by`, `distinct_on`, `limit`,
 * `offset`. SQL null rules apply (a comparison with a null column is false); text compares by code point.
 */
import type { AiDataset, AiRow, AiView } from './dataset';
import type { ColumnDef } from './model';

export class HasuraError extends Error {
	constructor(
		message: string,
		readonly code: string,
		readonly path = '$',
	) {
		super(message);
	}
}

export type OrderDirection =
	| 'asc'
	| 'desc'
	| 'asc_nulls_first'
	| 'asc_nulls_last'
	| 'desc_nulls_first'
	| 'desc_nulls_last';

export interface SelectArgs {
	where?: Record<string, unknown> | null;
	order_by?: Array<Record<string, OrderDirection>> | Record<string, OrderDirection> | null;
	distinct_on?: string[] | string | null;
	limit?: number | null;
	offset?: number | null;
}

type Predicate = (row: AiRow) => boolean;

interface OrderKey {
	column: ColumnDef;
	descending: boolean;
	nullsFirst: boolean;
}

/** Runs a select and returns the matching rows in answer order. */
export function selectRows(
	dataset: AiDataset,
	view: AiView,
	args: SelectArgs,
	argPath: string,
): AiRow[] {
	const limit = checkBound(args.limit, `${argPath}.limit`);
	const offset = checkBound(args.offset, `${argPath}.offset`) ?? 0;
	// `where: {}` is Hasura's "no filter" (clients send it when the user set none): page straight to the window.
	const where = args.where && Object.keys(args.where).length > 0 ? args.where : undefined;
	const predicate = where ? compileBoolExp(dataset, view, where, `${argPath}.where`) : undefined;
	const orderKeys = orderKeysOf(view, args.order_by, `${argPath}.order_by`);
	const distinctColumns = toList(args.distinct_on).map((name) =>
		columnOf(view, name, `${argPath}.distinct_on`),
	);
	const effectiveOrder = withDistinctOrder(orderKeys, distinctColumns, `${argPath}.distinct_on`);

	const ordered = effectiveOrder.length ? sortedIndexes(dataset, view, effectiveOrder) : undefined;
	if (!predicate && !distinctColumns.length) {
		// Plain paging: jump straight to the requested window.
		const end = Math.min(view.rows.length, limit === undefined ? view.rows.length : offset + limit);
		const page: AiRow[] = [];
		for (let position = offset; position < end; position++)
			page.push(view.rows[ordered ? ordered[position] : position]);
		return page;
	}
	const wanted = distinctColumns.length || limit === undefined ? Infinity : offset + limit;
	const matches: AiRow[] = [];
	const total = view.rows.length;
	for (let position = 0; position < total && matches.length < wanted; position++) {
		const row = view.rows[ordered ? ordered[position] : position];
		if (!predicate || predicate(row)) matches.push(row);
	}
	const distinct = distinctColumns.length
		? keepFirstPerKey(dataset, view, matches, distinctColumns)
		: matches;
	return distinct.slice(offset, limit === undefined ? undefined : offset + limit);
}

function checkBound(value: number | null | undefined, path: string): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (value < 0) throw new HasuraError('unexpected negative value', 'validation-failed', path);
	return value;
}

function toList<T>(value: T[] | T | null | undefined): T[] {
	if (value === undefined || value === null) return [];
	return Array.isArray(value) ? value : [value];
}

function columnOf(view: AiView, name: string, path: string): ColumnDef {
	const column = view.columnsByName.get(name);
	if (!column)
		throw new HasuraError(
			`field '${name}' not found in type: '${view.name}'`,
			'validation-failed',
			path,
		);
	return column;
}

// ---------------------------------------------------------------- ordering

function orderKeysOf(view: AiView, orderBy: SelectArgs['order_by'], path: string): OrderKey[] {
	const keys: OrderKey[] = [];
	for (const item of toList(orderBy)) {
		for (const [name, direction] of Object.entries(item)) {
			if (direction === null || direction === undefined) continue;
			const descending = direction.startsWith('desc');
			// Postgres default: nulls last ascending, nulls first descending.
			const nullsFirst =
				direction.endsWith('nulls_first') || (descending && !direction.endsWith('nulls_last'));
			keys.push({ column: columnOf(view, name, path), descending, nullsFirst });
		}
	}
	return keys;
}

/** Postgres DISTINCT ON needs the distinct columns to lead the ORDER BY; Hasura checks the same. */
function withDistinctOrder(orderKeys: OrderKey[], distinct: ColumnDef[], path: string): OrderKey[] {
	if (!distinct.length) return orderKeys;
	if (!orderKeys.length)
		return distinct.map((column) => ({ column, descending: false, nullsFirst: false }));
	const leading = new Set(orderKeys.slice(0, distinct.length).map((key) => key.column.name));
	const matches =
		leading.size === distinct.length && distinct.every((column) => leading.has(column.name));
	if (!matches)
		throw new HasuraError(
			'"distinct_on" columns must match initial "order_by" columns',
			'validation-failed',
			path,
		);
	return orderKeys;
}

function keepFirstPerKey(
	dataset: AiDataset,
	view: AiView,
	rows: AiRow[],
	columns: ColumnDef[],
): AiRow[] {
	const seen = new Set<string>();
	return rows.filter((row) => {
		const key = JSON.stringify(columns.map((column) => dataset.value(view, row, column)));
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** Row positions in the requested order, cached per view version so paging does not re-sort. */
function sortedIndexes(dataset: AiDataset, view: AiView, keys: OrderKey[]): Uint32Array {
	const cacheKey = keys
		.map((key) => `${key.column.name}:${key.descending ? 'd' : 'a'}${key.nullsFirst ? 'f' : 'l'}`)
		.join(',');
	const cached = dataset.unstableTies ? undefined : view.sortCache.get(cacheKey);
	if (cached) return cached;
	const round = dataset.unstableTies ? ++dataset.tieRound : 0;
	// Ties: row order, or with unstable ties a per-request shuffle.
	const tieOrder = (index: number) => (round === 0 ? index : mix32(index, round));
	const columnValues = keys.map((key) =>
		view.rows.map((row) => sortable(dataset.value(view, row, key.column), key.column)),
	);
	const indexes = Array.from({ length: view.rows.length }, (_, i) => i);
	indexes.sort((a, b) => {
		for (let k = 0; k < keys.length; k++) {
			const result = compareForOrder(columnValues[k][a], columnValues[k][b], keys[k]);
			if (result !== 0) return result;
		}
		return tieOrder(a) - tieOrder(b);
	});
	const result = Uint32Array.from(indexes);
	if (!dataset.unstableTies) view.sortCache.set(cacheKey, result);
	return result;
}

/** jsonb and array columns order by their JSON text here: consistent, though not Postgres' own array order. */
/** A 32-bit hash of (index, round) (murmur3's finalizer): a different shuffle of ties per round. */
function mix32(index: number, round: number): number {
	let hash = (index ^ Math.imul(round, 0x9e3779b1)) >>> 0;
	hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
	hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
	return (hash ^ (hash >>> 16)) >>> 0;
}

function sortable(value: unknown, column: ColumnDef): unknown {
	return (column.type === 'jsonb' || column.list) && value !== null ? JSON.stringify(value) : value;
}

function compareForOrder(a: unknown, b: unknown, key: OrderKey): number {
	const aNull = a === null || a === undefined;
	const bNull = b === null || b === undefined;
	if (aNull || bNull) {
		if (aNull && bNull) return 0;
		return aNull === key.nullsFirst ? -1 : 1;
	}
	const result = compareValues(a, b);
	return key.descending ? -result : result;
}

function compareValues(a: unknown, b: unknown): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const left = String(a);
	const right = String(b);
	return left < right ? -1 : left > right ? 1 : 0;
}

// ---------------------------------------------------------------- filtering

function compileBoolExp(
	dataset: AiDataset,
	view: AiView,
	expression: Record<string, unknown>,
	path: string,
): Predicate {
	const parts: Predicate[] = [];
	for (const [key, value] of Object.entries(expression)) {
		const here = `${path}.${key}`;
		if (value === null)
			throw new HasuraError(
				`unexpected null value for type "${view.name}_bool_exp"`,
				'validation-failed',
				here,
			);
		if (key === '_and' || key === '_or') {
			const children = toList(value as Array<Record<string, unknown>>).map((child, i) =>
				compileBoolExp(dataset, view, child, `${here}[${i}]`),
			);
			// Hasura: an empty _and/_or does not filter.
			if (!children.length) continue;
			parts.push(
				key === '_and'
					? (row) => children.every((child) => child(row))
					: (row) => children.some((child) => child(row)),
			);
		} else if (key === '_not') {
			const inner = compileBoolExp(dataset, view, value as Record<string, unknown>, here);
			parts.push((row) => !inner(row));
		} else {
			const column = columnOf(view, key, here);
			const test = compileComparison(column, value as Record<string, unknown>, here);
			parts.push((row) => test(dataset.value(view, row, column)));
		}
	}
	return (row) => parts.every((part) => part(row));
}

type ValueTest = (value: unknown) => boolean;

function compileComparison(
	column: ColumnDef,
	comparison: Record<string, unknown>,
	path: string,
): ValueTest {
	const tests = Object.entries(comparison).map(([operator, operand]) => {
		if (operand === null)
			throw new HasuraError(
				`unexpected null value for type "${column.type}"`,
				'validation-failed',
				`${path}.${operator}`,
			);
		return operatorTest(column, operator, operand, `${path}.${operator}`);
	});
	return (value) => tests.every((test) => test(value));
}

const notNull =
	(test: ValueTest): ValueTest =>
	(value) =>
		value !== null && value !== undefined && test(value);

function operatorTest(
	column: ColumnDef,
	operator: string,
	operand: unknown,
	path: string,
): ValueTest {
	const normalise = (value: unknown) =>
		column.type === 'jsonb' || column.list ? JSON.stringify(canonicalJson(value)) : value;
	const target = normalise(operand);
	switch (operator) {
		case '_is_null':
			return (value) => (value === null || value === undefined) === operand;
		case '_eq':
			return notNull((value) => normalise(value) === target);
		case '_neq':
			return notNull((value) => normalise(value) !== target);
		case '_gt':
			return notNull((value) => compareValues(normalise(value), target) > 0);
		case '_gte':
			return notNull((value) => compareValues(normalise(value), target) >= 0);
		case '_lt':
			return notNull((value) => compareValues(normalise(value), target) < 0);
		case '_lte':
			return notNull((value) => compareValues(normalise(value), target) <= 0);
		case '_in':
		case '_nin': {
			const set = new Set((operand as unknown[]).map(normalise));
			const wanted = operator === '_in';
			return notNull((value) => set.has(normalise(value)) === wanted);
		}
		case '_like':
		case '_nlike':
		case '_ilike':
		case '_nilike':
			return patternTest(
				likeToRegExp(String(operand), operator.includes('ilike')),
				operator.startsWith('_n'),
			);
		case '_similar':
		case '_nsimilar':
			return patternTest(similarToRegExp(String(operand), path), operator === '_nsimilar');
		case '_regex':
		case '_nregex':
		case '_iregex':
		case '_niregex':
			return patternTest(
				posixToRegExp(String(operand), operator.includes('iregex'), path),
				operator.startsWith('_n'),
			);
		default:
			return jsonbTest(operator, operand, path);
	}
}

function patternTest(pattern: RegExp, negate: boolean): ValueTest {
	return notNull((value) => pattern.test(String(value)) !== negate);
}

function canonicalJson(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonicalJson);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value)
				.sort()
				.map((key) => [key, canonicalJson((value as Record<string, unknown>)[key])]),
		);
	}
	return value;
}

const REGEX_SPECIALS = /[.*+?^${}()|[\]\\/]/g;

/** SQL LIKE: `%` any run, `_` one character, `\` escapes; the whole value must match. */
export function likeToRegExp(pattern: string, caseInsensitive: boolean): RegExp {
	let source = '';
	for (let i = 0; i < pattern.length; i++) {
		const char = pattern[i];
		if (char === '\\' && i + 1 < pattern.length)
			source += pattern[++i].replace(REGEX_SPECIALS, '\\$&');
		else if (char === '%') source += '[\\s\\S]*';
		else if (char === '_') source += '[\\s\\S]';
		else source += char.replace(REGEX_SPECIALS, '\\$&');
	}
	return new RegExp(`^(?:${source})$`, caseInsensitive ? 'iu' : 'u');
}

/** SQL SIMILAR TO: LIKE wildcards plus regex alternation/grouping/quantifiers/brackets; anchored. */
function similarToRegExp(pattern: string, path: string): RegExp {
	let source = '';
	for (let i = 0; i < pattern.length; i++) {
		const char = pattern[i];
		if (char === '\\' && i + 1 < pattern.length)
			source += pattern[++i].replace(REGEX_SPECIALS, '\\$&');
		else if (char === '%') source += '[\\s\\S]*';
		else if (char === '_') source += '[\\s\\S]';
		else if ('|()*+?{}[]'.includes(char)) source += char;
		else if (char === ',' || /[0-9A-Za-z]/.test(char)) source += char;
		else source += char.replace(REGEX_SPECIALS, '\\$&');
	}
	return compileRegExp(`^(?:${source})$`, 'u', path);
}

/** POSIX regular expressions (Postgres `~`): unanchored; the common syntax is shared with JavaScript. */
function posixToRegExp(pattern: string, caseInsensitive: boolean, path: string): RegExp {
	const translated = pattern
		.replace(/\[:alpha:\]/g, 'A-Za-z')
		.replace(/\[:digit:\]/g, '0-9')
		.replace(/\[:alnum:\]/g, 'A-Za-z0-9')
		.replace(/\[:space:\]/g, '\\s')
		.replace(/\[:upper:\]/g, 'A-Z')
		.replace(/\[:lower:\]/g, 'a-z');
	return compileRegExp(translated, caseInsensitive ? 'iu' : 'u', path);
}

function compileRegExp(source: string, flags: string, path: string): RegExp {
	try {
		return new RegExp(source, flags);
	} catch {
		throw new HasuraError('invalid regular expression', 'data-exception', path);
	}
}

function jsonbTest(operator: string, operand: unknown, path: string): ValueTest {
	switch (operator) {
		case '_contains':
			return notNull((value) => jsonContains(value, operand));
		case '_contained_in':
			return notNull((value) => jsonContains(operand, value));
		case '_has_key':
			return notNull((value) => hasKey(value, String(operand)));
		case '_has_keys_all':
			return notNull((value) => (operand as string[]).every((key) => hasKey(value, key)));
		case '_has_keys_any':
			return notNull((value) => (operand as string[]).some((key) => hasKey(value, key)));
		default:
			throw new HasuraError(`unknown operator ${operator}`, 'validation-failed', path);
	}
}

/** Postgres `@>`: objects contain sub-objects, arrays contain elements (order and duplicates ignored). */
function jsonContains(container: unknown, contained: unknown): boolean {
	if (Array.isArray(container)) {
		const items = Array.isArray(contained) ? contained : [contained];
		return items.every((item) => container.some((candidate) => jsonContains(candidate, item)));
	}
	if (container && typeof container === 'object') {
		if (!contained || typeof contained !== 'object' || Array.isArray(contained)) return false;
		return Object.entries(contained).every(
			([key, value]) =>
				key in container && jsonContains((container as Record<string, unknown>)[key], value),
		);
	}
	return container === contained;
}

function hasKey(value: unknown, key: string): boolean {
	if (Array.isArray(value)) return value.includes(key);
	return !!value && typeof value === 'object' && key in value;
}
