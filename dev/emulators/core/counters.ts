import type { ServerResponse } from 'node:http';

/** Request accounting shared by both emulated services; exposed via `sandbox.counters` and `GET /__sandbox/counters`. */

export type ServiceName = 'ai' | 'org';

export interface ServiceCounters {
	/** Requests per endpoint: `token`, `graphql`, `files`, `other`. */
	requests: Record<string, number>;
	/** Tokens successfully issued. */
	tokensIssued: number;
	/** Responses by HTTP status code ('200', '401', ...; 'dropped' for destroyed connections). */
	statuses: Record<string, number>;
	/** Injected faults by `<endpoint>.<fault>`, e.g. `graphql.status429`, `token.html`. */
	faults: Record<string, number>;
}

export type CountersSnapshot = Record<ServiceName, ServiceCounters>;

function emptyCounters(): ServiceCounters {
	return { requests: {}, tokensIssued: 0, statuses: {}, faults: {} };
}

function increment(record: Record<string, number>, key: string): void {
	record[key] = (record[key] ?? 0) + 1;
}

export class Counters {
	private state: CountersSnapshot = { ai: emptyCounters(), org: emptyCounters() };
	/** Per service: `Date.now()` of the first request to each endpoint since the last `watchFirstRequest()`. */
	private firstRequest: Partial<Record<ServiceName, Record<string, number>>> = {};

	request(service: ServiceName, endpoint: string): void {
		increment(this.state[service].requests, endpoint);
		const first = (this.firstRequest[service] ??= {});
		first[endpoint] ??= Date.now();
	}

	/**
	 * `Date.now()` of the first request to `service` (to its `endpoint`, e.g. `graphql`, when given) since the last
	 * `watchFirstRequest()` (or since start), e.g. when a poll trigger that runs inside n8n began to ask.
	 */
	firstRequestAt(service: ServiceName, endpoint?: string): number | undefined {
		const first = this.firstRequest[service];
		if (!first) return undefined;
		if (endpoint !== undefined) return first[endpoint];
		const times = Object.values(first);
		return times.length > 0 ? Math.min(...times) : undefined;
	}

	watchFirstRequest(): void {
		this.firstRequest = {};
	}

	tokenIssued(service: ServiceName): void {
		this.state[service].tokensIssued++;
	}

	response(service: ServiceName, status: number | 'dropped'): void {
		increment(this.state[service].statuses, String(status));
	}

	fault(service: ServiceName, endpoint: string, kind: string): void {
		increment(this.state[service].faults, `${endpoint}.${kind}`);
	}

	/** A deep copy, so callers can keep it as a "before" picture. */
	get(): CountersSnapshot {
		return JSON.parse(JSON.stringify(this.state)) as CountersSnapshot;
	}

	reset(): void {
		this.state = { ai: emptyCounters(), org: emptyCounters() };
		this.firstRequest = {};
	}
}

/** Records the final status of a response (or `dropped` when the socket closed first). */
export function countResponses(
	res: ServerResponse,
	counters: Counters,
	service: ServiceName,
): void {
	res.on('finish', () => counters.response(service, res.statusCode));
	res.on('close', () => {
		if (!res.writableFinished) counters.response(service, 'dropped');
	});
}
