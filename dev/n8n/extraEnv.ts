/**
 * Extra environment for every n8n process a script starts, from a variable holding a JSON object of string values
 * (e.g. `BENCH_N8N_ENV='{"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE": "true"}'`): how a figure is measured again under
 * one of n8n's own settings. Empty when the variable is unset.
 */
export function n8nEnvFrom(
	variable: string,
	env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
	const text = env[variable];
	if (!text) return {};
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	const valid =
		typeof parsed === 'object' &&
		parsed !== null &&
		!Array.isArray(parsed) &&
		Object.values(parsed).every((value) => typeof value === 'string');
	if (!valid)
		throw new Error(
			`${variable} must be a JSON object of string values, e.g. {"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE": "true"}`,
		);
	return parsed as Record<string, string>;
}
