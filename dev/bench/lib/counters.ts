import type { CountersSnapshot, Sandbox } from '../../emulators';

/** Requests the emulators saw during one case: counters after minus counters before. */
export interface RequestCounts {
	aiGraphql: number;
	aiToken: number;
	orgGraphql: number;
	orgToken: number;
}

export function snapshot(sandbox: Sandbox): CountersSnapshot {
	return sandbox.counters.get();
}

export function countsSince(sandbox: Sandbox, before: CountersSnapshot): RequestCounts {
	const after = sandbox.counters.get();
	const delta = (service: 'ai' | 'org', endpoint: string) =>
		(after[service].requests[endpoint] ?? 0) - (before[service].requests[endpoint] ?? 0);
	return {
		aiGraphql: delta('ai', 'graphql'),
		aiToken: delta('ai', 'token'),
		orgGraphql: delta('org', 'graphql'),
		orgToken: delta('org', 'token'),
	};
}
