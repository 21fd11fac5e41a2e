/**
 * `/__sandbox/*` control routes, served by both emulators so another process (e2e, benchmarks) can steer them:
 *   GET  /__sandbox/counters          -> CountersSnapshot JSON
 *   POST /__sandbox/faults  {"ai": plan, "aiAuth": null, ...}  (a target mapped to null/{} clears it)
 *   POST /__sandbox/reset             -> clears all faults and counters
 *   POST /__sandbox/touch   {"view": "face_tasks", "count": 3}  (AI server only; returns touched records)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Counters } from './counters';
import { type FaultControl, type FaultPlan, isFaultTarget } from './faults';
import { readBody, sendJson } from './http';

export type ExtraControl = (route: string, body: unknown) => unknown;

export interface ControlOptions {
	faults: FaultControl;
	counters: Counters;
	/** Additional POST routes (`touch`), returning the JSON to answer with. */
	extra?: Record<string, ExtraControl>;
}

export const CONTROL_PREFIX = '/__sandbox/';

export async function handleControl(
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	options: ControlOptions,
): Promise<void> {
	const route = url.pathname.slice(CONTROL_PREFIX.length);
	if (req.method === 'GET' && route === 'counters')
		return sendJson(res, 200, options.counters.get());
	if (req.method !== 'POST') return sendJson(res, 405, { error: 'method_not_allowed' });
	const raw = (await readBody(req)).toString('utf8');
	let body: unknown = {};
	try {
		body = raw ? JSON.parse(raw) : {};
	} catch {
		return sendJson(res, 400, { error: 'invalid_json' });
	}
	try {
		if (route === 'reset') {
			options.faults.clear();
			options.counters.reset();
			return sendJson(res, 200, { ok: true });
		}
		if (route === 'faults')
			return sendJson(res, 200, { ok: true, faults: applyFaultPlans(options.faults, body) });
		const extra = options.extra?.[route];
		if (extra) return sendJson(res, 200, extra(route, body));
	} catch (error) {
		return sendJson(res, 400, { error: 'bad_request', message: (error as Error).message });
	}
	return sendJson(res, 404, { error: 'not_found' });
}

function applyFaultPlans(faults: FaultControl, body: unknown): Record<string, FaultPlan> {
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new Error('Expected an object of target -> plan');
	const applied: Record<string, FaultPlan> = {};
	for (const [target, plan] of Object.entries(body as Record<string, unknown>)) {
		if (!isFaultTarget(target)) throw new Error(`Unknown fault target "${target}"`);
		if (plan === null || (typeof plan === 'object' && Object.keys(plan).length === 0))
			faults.clear(target);
		else if (typeof plan === 'object' && !Array.isArray(plan)) faults.set(target, plan);
		else throw new Error(`Plan for "${target}" must be an object or null`);
		applied[target] = faults.get(target);
	}
	return applied;
}
