/**
 * Sandbox command line (`npm run sandbox -- [flags]`):
 *   --rows N --seed N --host H --ai-port N --org-port N --ai-naming seed|live --raw-storage inline|paths
 *   --no-aggregates --token-ttl S --bench
 * and the webhook sender: `send --url URL --secret whsec_... [--secret ...] --outcome success|failure
 *   [--tamper] [--replay] [--stale] [--future] [--count N] [--retries] [--compress F]`.
 */
import { startSandbox, type SandboxOptions } from './index';
import { runSendCommand } from './webhook/cli';

function parseFlags(argv: string[]): Map<string, string[]> {
	const flags = new Map<string, string[]>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
		const [name, inline] = arg.slice(2).split('=', 2);
		const next = argv[i + 1];
		const value = inline ?? (next !== undefined && !next.startsWith('--') ? (i++, next) : 'true');
		flags.set(name, [...(flags.get(name) ?? []), value]);
	}
	return flags;
}

function intFlag(flags: Map<string, string[]>, name: string): number | undefined {
	const value = flags.get(name)?.at(-1);
	if (value === undefined) return undefined;
	const parsed = Number(value);
	if (!Number.isInteger(parsed) || parsed < 0)
		throw new Error(`--${name} needs a non-negative integer`);
	return parsed;
}

function oneOf<T extends string>(
	flags: Map<string, string[]>,
	name: string,
	allowed: readonly T[],
): T | undefined {
	const value = flags.get(name)?.at(-1);
	if (value === undefined) return undefined;
	if (!allowed.includes(value as T))
		throw new Error(`--${name} must be one of ${allowed.join(', ')}`);
	return value as T;
}

const SANDBOX_FLAGS = [
	'rows',
	'seed',
	'host',
	'ai-port',
	'org-port',
	'ai-naming',
	'raw-storage',
	'no-aggregates',
	'token-ttl',
	'bench',
];

async function runSandbox(flags: Map<string, string[]>): Promise<void> {
	const unknown = [...flags.keys()].filter((name) => !SANDBOX_FLAGS.includes(name));
	if (unknown.length)
		throw new Error(`Unknown flag(s): ${unknown.map((name) => `--${name}`).join(', ')}`);
	const options: SandboxOptions = {
		rows: intFlag(flags, 'rows'),
		seed: intFlag(flags, 'seed'),
		host: flags.get('host')?.at(-1),
		aiPort: intFlag(flags, 'ai-port'),
		orgPort: intFlag(flags, 'org-port'),
		aiNaming: oneOf(flags, 'ai-naming', ['seed', 'live'] as const),
		aiRawStorage: oneOf(flags, 'raw-storage', ['inline', 'paths'] as const),
		aiAggregates: flags.has('no-aggregates') ? false : undefined,
		tokenTtlSeconds: intFlag(flags, 'token-ttl'),
		benchMode: flags.has('bench') ? true : undefined,
	};
	const sandbox = await startSandbox(options);
	const summary = {
		ai: {
			authUrl: sandbox.ai.authUrl,
			graphqlUrl: sandbox.ai.graphqlUrl,
			email: sandbox.ai.email,
			password: sandbox.ai.password,
		},
		org: {
			authUrl: sandbox.org.authUrl,
			apiUrl: sandbox.org.apiUrl,
			username: sandbox.org.username,
			password: sandbox.org.password,
		},
		options: sandbox.options,
	};
	// Printed as JSON on one line so scripts can read it; the demo credentials are fixed, public test values.
	console.log(JSON.stringify(summary));
	const stop = () => {
		void sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

async function main(): Promise<void> {
	const [first, ...rest] = process.argv.slice(2);
	if (first === 'send') {
		process.exitCode = await runSendCommand(parseFlags(rest));
		return;
	}
	await runSandbox(parseFlags(first === undefined ? [] : [first, ...rest]));
}

main().catch((error: unknown) => {
	console.error((error as Error).message);
	process.exit(2);
});
