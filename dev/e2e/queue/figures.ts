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

export interface SoakSettings {
	events: number;
	ratePerSecond: number;
	/** Share of events the sender sends again (signed afresh) after their 2xx. */
	retryShare: number;
	/** Share of events an attacker replays byte for byte, `replayAfterMs` after their first attempt. */
	replayShare: number;
	replayAfterMs: number;
	respond: 'afterSaved' | 'immediately';
}

export interface SoakFigures {
	version: string;
	settings: SoakSettings;
	sendingSeconds: number;
	answered: number;
	attemptsBeyondFirst: number;
	exactlyOnce: number;
	notRun: number;
	ranTwice: number;
	/** Ids the recorder saw that the soak never sent. */
	foreign: number;
	executions: number;
	executionStatuses: Record<string, number>;
	retriesAfterAnswer: number;
	retriesAnswered2xx: number;
	replays: number;
	replaysAnswered2xx: number;
	firstThousand: LatencySummary;
	lastThousand: LatencySummary;
	p99Ratio: number;
}

export interface LatencySummary {
	p50: number;
	p99: number;
	count: number;
}

export interface VersionFigures {
	trigger: TriggerFigures[];
	tokenRequests?: { executions: number; tokens: number };
	/** The reduced soak (newest version only). */
	soak?: SoakFigures;
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
		soak: update.soak ?? current.soak,
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
		// Not measured on the soak's version unless E2E_QUEUE_WORKER_FIGURES=all (queue-mode.test.ts).
		if (each.trigger.length === 0)
			lines.push('  workers: not measured (E2E_QUEUE_WORKER_FIGURES=all)');
		else
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
		if (each.soak) {
			lines.push('', ...soakTableHeader(each.soak.settings), soakTableRow(each.soak));
		}
	}
	return lines.join('\n');
}

/** The soak's figures as one row of the table soakTableHeader starts. */
export function soakTableRow(figures: SoakFigures): string {
	const { settings, firstThousand: first, lastThousand: last } = figures;
	return `| ${figures.version} | ${settings.respond} | ${settings.events} at ${settings.ratePerSecond}/s | ${figures.exactlyOnce} | ${figures.notRun} | ${figures.ranTwice} | ${figures.retriesAnswered2xx}/${figures.retriesAfterAnswer} | ${figures.replaysAnswered2xx}/${figures.replays} | ${first.p50} / ${first.p99} | ${last.p50} / ${last.p99} | ${figures.p99Ratio} |`;
}

/** How many events the soak's first and last latency figures each cover: a thousand, or half of a shorter soak. */
export function latencySliceSize(events: number): number {
	return Math.min(1000, Math.floor(events / 2));
}

export function soakTableHeader(settings: SoakSettings): string[] {
	const slice = latencySliceSize(settings.events).toLocaleString('en-US');
	return [
		`SIP trigger soak, queue mode (2 webhook processors routed by webhook-id, 2 workers); ${Math.round(settings.retryShare * 100)} % sent again after their 2xx, ${Math.round(settings.replayShare * 100)} % replayed ${settings.replayAfterMs / 1000} s later`,
		'',
		`| n8n | Respond | Events | Ran exactly once | Not run | Ran twice | Retries after 2xx answered 2xx | Replays answered 2xx | First ${slice} p50 / p99 ms | Last ${slice} p50 / p99 ms | p99 last / first |`,
		'|---|---|---|---|---|---|---|---|---|---|---|',
	];
}
