/** The parts of n8n's run data that e2e tests read (same shape in n8n 1.x and 2.x). */

export interface RunItem {
	json: Record<string, unknown>;
	binary?: Record<string, unknown>;
	pairedItem?: unknown;
}

export interface NodeRun {
	startTime?: number;
	executionTime?: number;
	executionStatus?: string;
	data?: { main?: Array<RunItem[] | null> };
	error?: { message?: string; description?: string; [key: string]: unknown };
}

export interface RunExecutionData {
	resultData: {
		runData: Record<string, NodeRun[]>;
		lastNodeExecuted?: string;
		error?: { message?: string; [key: string]: unknown };
	};
}

/** What `n8n execute --rawOutput` prints. */
export interface CliRun {
	data: RunExecutionData;
	mode?: string;
	status?: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
}

/** Items one node produced on one of its outputs, in one of its runs. */
export function nodeItems(
	runData: RunExecutionData,
	nodeName: string,
	{ output = 0, run = 0 }: { output?: number; run?: number } = {},
): RunItem[] {
	const runs = runData.resultData.runData[nodeName];
	if (!runs) {
		const ran = Object.keys(runData.resultData.runData).join(', ') || 'none';
		throw new Error(`node "${nodeName}" did not run (nodes that ran: ${ran})`);
	}
	const nodeRun = runs[run];
	if (!nodeRun) throw new Error(`node "${nodeName}" has no run #${run}`);
	if (nodeRun.error) {
		throw new Error(`node "${nodeName}" failed: ${nodeRun.error.message ?? 'unknown error'}`);
	}
	return nodeRun.data?.main?.[output] ?? [];
}

/** Just the `json` of each item, the usual thing to assert on. */
export function nodeJson(
	runData: RunExecutionData,
	nodeName: string,
	position: { output?: number; run?: number } = {},
): Array<Record<string, unknown>> {
	return nodeItems(runData, nodeName, position).map((item) => item.json);
}

/**
 * Finds the run JSON in `n8n execute --rawOutput` output. n8n and its modules may log lines
 * before (and after) it, so the first top-level object that parses wins. The JSON is
 * pretty-printed, so it starts with a line `{` and ends with a line `}`.
 */
export function parseRawOutput(output: string): CliRun | undefined {
	const lines = output.split('\n');
	for (let start = 0; start < lines.length; start++) {
		if (lines[start].trimEnd() !== '{') continue;
		for (let end = start + 1; end < lines.length; end++) {
			if (lines[end].trimEnd() !== '}') continue;
			const candidate = tryParse(lines.slice(start, end + 1).join('\n'));
			if (isCliRun(candidate)) return candidate;
		}
	}
	return undefined;
}

function tryParse(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function isCliRun(value: unknown): value is CliRun {
	if (typeof value !== 'object' || value === null) return false;
	const data = (value as { data?: { resultData?: unknown } }).data;
	return typeof data?.resultData === 'object' && data.resultData !== null;
}
