import { selectedN8nVersions } from '../../n8n/install';

/**
 * Queue mode starts Redis, PostgreSQL and five n8n processes per version, so it runs only when asked
 * for (`npm run e2e:queue`, which sets E2E_QUEUE=1), never as part of the single-process suite.
 */
export const QUEUE_MODE_REQUESTED = process.env.E2E_QUEUE === '1';

/** `E2E_QUEUE_N8N_VERSIONS` narrows queue mode alone; otherwise the versions of the e2e suite. */
export function queueVersions(env: NodeJS.ProcessEnv = process.env): string[] {
	const requested = env.E2E_QUEUE_N8N_VERSIONS?.split(/[\s,]+/).filter(Boolean) ?? [];
	return requested.length > 0 ? requested : selectedN8nVersions(env);
}
