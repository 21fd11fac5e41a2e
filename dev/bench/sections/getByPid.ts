import type { Sandbox } from '../../emulators';
import type { N8nInstance } from '../../n8n/n8n';
import type { CliRun } from '../../n8n/run-data';
import type { CredentialRef, WorkflowJson } from '../../n8n/workflows';
import { countsSince, snapshot } from '../lib/counters';
import { executeMeasured } from '../lib/execute';
import { ratio } from '../lib/stats';
import {
	AI_NODE,
	GRAPHQL_NODE,
	graphqlGetByPidWorkflow,
	ourGetByPidWorkflow,
} from '../lib/workflows';

/** Get by PID for N input items: our batched lookup vs n8n's GraphQL node with one request per item. */

export interface GetByPidCase {
	contender: string;
	inputItems: number;
	/** face_tasks rows returned over all items (checked against the dataset). */
	rows: number;
	graphqlRequests: number;
	tokenRequests: number;
	nodeMs: number;
	executionMs: number;
	processWallMs: number;
	error?: string;
}

export interface GetByPidResult {
	inputItems: number;
	distinctPids: number;
	expectedRows: number;
	cases: GetByPidCase[];
	oursOverGraphql?: number;
}

export interface GetByPidSetup {
	n8n: N8nInstance;
	sandbox: Sandbox;
	aiCredential: CredentialRef;
	headerCredential: CredentialRef;
	items: number;
	packageBuilt: boolean;
	log: (line: string) => void;
}

interface PidPlan {
	pids: string[];
	expectedRows: number;
}

/** The first `items` distinct PIDs of face_tasks in the dataset, and how many rows they have in all. */
export function planPids(sandbox: Sandbox, items: number): PidPlan {
	const rowsPerPid = new Map<string, number>();
	for (const record of sandbox.data.ai.records('face_tasks', ['pid'])) {
		const pid = String(record.pid);
		rowsPerPid.set(pid, (rowsPerPid.get(pid) ?? 0) + 1);
	}
	const pids = [...rowsPerPid.keys()].slice(0, items);
	if (pids.length < items)
		throw new Error(`the dataset has only ${pids.length} distinct PIDs; need ${items}`);
	return { pids, expectedRows: pids.reduce((sum, pid) => sum + (rowsPerPid.get(pid) ?? 0), 0) };
}

export function getByPidWorkflows(
	setup: GetByPidSetup,
	plan: PidPlan,
): Record<string, WorkflowJson> {
	return {
		graphql: graphqlGetByPidWorkflow(
			setup.sandbox.ai.graphqlUrl,
			setup.headerCredential,
			plan.pids,
		),
		...(setup.packageBuilt ? { ours: ourGetByPidWorkflow(setup.aiCredential, plan.pids) } : {}),
	};
}

export async function runGetByPid(
	setup: GetByPidSetup,
	plan: PidPlan,
	ids: Record<string, string>,
): Promise<GetByPidResult> {
	const cases: GetByPidCase[] = [];
	if (ids.ours) {
		setup.log(`get by pid: Archive AI Metadata node, ${plan.pids.length} items`);
		cases.push(
			await pidCase(setup, ids.ours, 'Archive AI Metadata (Get by PID, batched)', AI_NODE, plan),
		);
	}
	setup.log(`get by pid: GraphQL node, ${plan.pids.length} items`);
	cases.push(
		await pidCase(setup, ids.graphql, 'GraphQL node (1 request per item)', GRAPHQL_NODE, plan),
	);
	const ours = cases.find((each) => each.contender.startsWith('Archive'));
	const graphql = cases.find((each) => each.contender.startsWith('GraphQL'));
	return {
		inputItems: plan.pids.length,
		distinctPids: new Set(plan.pids).size,
		expectedRows: plan.expectedRows,
		cases,
		...(ours && graphql ? { oursOverGraphql: ratio(ours.nodeMs, graphql.nodeMs) } : {}),
	};
}

async function pidCase(
	setup: GetByPidSetup,
	workflowId: string,
	contender: string,
	nodeName: string,
	plan: PidPlan,
): Promise<GetByPidCase> {
	const before = snapshot(setup.sandbox);
	const measured = await executeMeasured(setup.n8n, workflowId, (run) => ({
		rows: rowsOf(run, nodeName),
	}));
	const requests = countsSince(setup.sandbox, before);
	const error =
		measured.error ??
		measured.nodes[nodeName]?.error ??
		(measured.checks.rows === plan.expectedRows
			? undefined
			: `got ${measured.checks.rows} rows, expected ${plan.expectedRows}`);
	return {
		contender,
		inputItems: plan.pids.length,
		rows: measured.checks.rows,
		graphqlRequests: requests.aiGraphql,
		tokenRequests: requests.aiToken,
		nodeMs: measured.nodes[nodeName]?.executionTimeMs ?? Number.NaN,
		executionMs: measured.executionMs,
		processWallMs: Math.round(measured.processWallMs),
		...(error === undefined ? {} : { error }),
	};
}

/** Our node outputs one item per row; the GraphQL node one item per input holding that PID's rows. */
function rowsOf(run: CliRun, nodeName: string): number {
	const items = run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
	if (nodeName !== GRAPHQL_NODE) return items.length;
	return items.reduce((sum, item) => {
		const rows = (item.json as { data?: { face_tasks?: unknown[] } }).data?.face_tasks;
		return sum + (Array.isArray(rows) ? rows.length : 0);
	}, 0);
}
