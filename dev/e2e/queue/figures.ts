import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../n8n/install';

/** Figures the queue-mode suite measures; `npm run e2e:queue` prints them after jest. */
export const FIGURES_FILE = path.join(REPO_ROOT, '.build', 'e2e-queue-figures.json');

export interface TriggerFigures {
	workers: number;
	events: number;
	eventsPerSecond: number;
	p50Ms: number;
	p99Ms: number;
	/** Accepted (204) events without a successful execution. */
	lost: number;
}

export interface VersionFigures {
	trigger: TriggerFigures[];
	tokenRequests?: { executions: number; tokens: number };
}

export type QueueFigures = Record<string, VersionFigures>;

/** Merges one version's figures into the file (jest may run versions in one process or several). */
export function recordFigures(version: string, update: Partial<VersionFigures>): void {
	const all: QueueFigures = fs.existsSync(FIGURES_FILE)
		? (JSON.parse(fs.readFileSync(FIGURES_FILE, 'utf8')) as QueueFigures)
		: {};
	const current = all[version] ?? { trigger: [] };
	all[version] = {
		trigger: [...current.trigger, ...(update.trigger ?? [])],
		tokenRequests: update.tokenRequests ?? current.tokenRequests,
	};
	fs.mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
	fs.writeFileSync(FIGURES_FILE, JSON.stringify(all, null, 2));
}

/** Nearest-rank percentile of an unsorted list. */
export function percentile(values: number[], fraction: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

export function formatFigures(figures: QueueFigures): string {
	const lines = [
		'',
		'queue mode figures (SIP Status Trigger, events sent through both webhook processors)',
	];
	for (const [version, each] of Object.entries(figures)) {
		lines.push(`n8n ${version}`);
		lines.push(
			`  ${'workers'.padEnd(8)}${'events'.padEnd(8)}${'events/s'.padEnd(10)}${'p50 ms'.padEnd(9)}${'p99 ms'.padEnd(9)}lost`,
		);
		for (const run of each.trigger) {
			lines.push(
				`  ${String(run.workers).padEnd(8)}${String(run.events).padEnd(8)}${run.eventsPerSecond.toFixed(1).padEnd(10)}` +
					`${String(Math.round(run.p50Ms)).padEnd(9)}${String(Math.round(run.p99Ms)).padEnd(9)}${run.lost}`,
			);
		}
		if (each.tokenRequests) {
			lines.push(
				`  token requests: ${each.tokenRequests.tokens} for ${each.tokenRequests.executions} executions over both workers`,
			);
		}
	}
	return lines.join('\n');
}
