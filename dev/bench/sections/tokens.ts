import type { Sandbox } from '../../emulators';
import { postJson } from '../../n8n/http';
import type { N8nInstance } from '../../n8n/n8n';
import { countsSince, snapshot, type RequestCounts } from '../lib/counters';
import { executeMeasured } from '../lib/execute';
import { AI_NODE, ORG_NODE } from '../lib/workflows';

/**
 * Token requests over consecutive executions of one workflow that reads from both APIs (AI Metadata and
 * Organization), each with its own fresh credential so the first execution has to fetch a token.
 * Two ways: a running n8n serving the workflow by webhook (how production runs), and separate `n8n execute`
 * processes (where only what n8n stored in the database can carry a token from one execution to the next).
 */

export interface TokenRun {
	method: string;
	executions: number;
	succeeded: number;
	aiTokenRequests: number;
	orgTokenRequests: number;
	aiGraphqlRequests: number;
	orgGraphqlRequests: number;
	wallMs: number;
	firstError?: string;
}

const WEBHOOK_TIMEOUT_MS = 60_000;

/** n8n is running; the workflow answers the webhook after its last node, so calls are consecutive executions. */
export async function runTokensViaWebhook(
	n8n: N8nInstance,
	sandbox: Sandbox,
	path: string,
	executions: number,
): Promise<TokenRun> {
	const before = snapshot(sandbox);
	const started = Date.now();
	let succeeded = 0;
	let firstError: string | undefined;
	for (
		let index = 0;
		index < executions && Date.now() - started < executions * WEBHOOK_TIMEOUT_MS;
		index++
	) {
		const response = await postJson(`${n8n.baseUrl}/webhook/${path}`, { call: index });
		if (response.status === 200) succeeded++;
		else firstError ??= `HTTP ${response.status}: ${n8n.redact(response.body.slice(0, 300))}`;
	}
	return summary(
		'running n8n, webhook-triggered executions',
		executions,
		succeeded,
		countsSince(sandbox, before),
		Date.now() - started,
		firstError,
	);
}

/** One `n8n execute` process per execution. */
export async function runTokensViaCli(
	n8n: N8nInstance,
	sandbox: Sandbox,
	workflowId: string,
	executions: number,
): Promise<TokenRun> {
	const before = snapshot(sandbox);
	const started = Date.now();
	let succeeded = 0;
	let firstError: string | undefined;
	for (let index = 0; index < executions; index++) {
		const measured = await executeMeasured(n8n, workflowId);
		const nodeError = measured.nodes[AI_NODE]?.error ?? measured.nodes[ORG_NODE]?.error;
		if (measured.succeeded && !nodeError) succeeded++;
		else firstError ??= measured.error ?? nodeError ?? 'execution failed';
	}
	return summary(
		'separate `n8n execute` processes',
		executions,
		succeeded,
		countsSince(sandbox, before),
		Date.now() - started,
		firstError,
	);
}

function summary(
	method: string,
	executions: number,
	succeeded: number,
	counts: RequestCounts,
	wallMs: number,
	firstError?: string,
): TokenRun {
	return {
		method,
		executions,
		succeeded,
		aiTokenRequests: counts.aiToken,
		orgTokenRequests: counts.orgToken,
		aiGraphqlRequests: counts.aiGraphql,
		orgGraphqlRequests: counts.orgGraphql,
		wallMs,
		...(firstError === undefined ? {} : { firstError }),
	};
}
