/** Markdown tables for the benchmark figures (printed to stdout and written to results.md). */

export type Cell = string | number | boolean | undefined;

export function markdownTable(headers: string[], rows: Cell[][]): string {
	const text = (cell: Cell) => formatCell(cell).replace(/\|/g, '\\|');
	const lines = [
		`| ${headers.map(text).join(' | ')} |`,
		`| ${headers.map(() => '---').join(' | ')} |`,
		...rows.map((row) => `| ${headers.map((_header, index) => text(row[index])).join(' | ')} |`),
	];
	return lines.join('\n');
}

export function formatCell(cell: Cell): string {
	if (cell === undefined) return '–';
	if (typeof cell === 'number') {
		if (Number.isNaN(cell)) return 'n/a';
		return Number.isInteger(cell)
			? cell.toLocaleString('en-US')
			: cell.toLocaleString('en-US', { maximumFractionDigits: 2 });
	}
	return String(cell);
}

/**
 * "0.42 met (target ≤ 0.5)" or "0.61 MISSED (target ≤ 0.5)"; n/a when there is no figure. With `significant`, the
 * figure is shown to that many significant digits (for ratios far below 0.01).
 */
export function verdict(
	value: number | undefined,
	limit: number,
	label = `≤ ${limit}`,
	significant?: number,
): string {
	if (value === undefined || Number.isNaN(value)) return `n/a (target ${label})`;
	const figure = significant ? String(Number(value.toPrecision(significant))) : formatCell(value);
	return `${figure} ${value <= limit ? 'met' : 'MISSED'} (target ${label})`;
}
