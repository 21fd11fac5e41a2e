import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Child processes run in their own process group so that everything they fork (n8n's task
 * runners, for instance) can be signalled at once, and they are killed when this process exits
 * so that a crashed test run leaves nothing behind.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	const killAll = () => {
		for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
	};
	process.once('exit', killAll);
	// Detached groups do not get the terminal's Ctrl-C: pass it on, then die as we would have.
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			// A program with its own handler (the demo) stops its children gracefully and exits;
			// the 'exit' hook still kills whatever is left then.
			if (process.listenerCount(signal) > 0) return;
			killAll();
			process.kill(process.pid, signal);
		});
	}
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// Already gone.
	}
}

export interface SpawnOptions {
	cwd?: string;
	env: NodeJS.ProcessEnv;
	/** Receives every chunk of stdout and stderr as it arrives. */
	onOutput?: (chunk: string) => void;
}

export interface GroupProcess {
	child: ChildProcess;
	/** Resolves once the process has exited, with its exit code (null when killed by a signal). */
	exited: Promise<number | null>;
	stdout(): string;
	stderr(): string;
	/** SIGTERM to the whole group, SIGKILL after the grace period; resolves when it is gone. */
	stop(graceMs?: number): Promise<void>;
	/** SIGKILL to the whole group at once (a crash, no shutdown); resolves when it is gone. */
	kill(): Promise<void>;
}

export function spawnGroup(command: string, args: string[], options: SpawnOptions): GroupProcess {
	installExitHook();
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const pid = child.pid;
	if (pid === undefined) throw new Error(`could not start ${command}`);
	liveGroups.add(pid);

	const stdoutChunks: string[] = [];
	const stderrChunks: string[] = [];
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
		stdoutChunks.push(chunk);
		options.onOutput?.(chunk);
	});
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
		stderrChunks.push(chunk);
		options.onOutput?.(chunk);
	});

	let hasExited = false;
	// Children the leader left behind (a runner that outlived n8n) go too; they may hold the
	// pipes open, so 'close' would not come before they are gone.
	child.once('exit', () => signalGroup(pid, 'SIGKILL'));
	const exited = new Promise<number | null>((resolve) => {
		child.once('close', (code) => {
			hasExited = true;
			liveGroups.delete(pid);
			resolve(code);
		});
	});

	const stop = async (graceMs = 10_000): Promise<void> => {
		if (hasExited) return;
		signalGroup(pid, 'SIGTERM');
		let killTimer: NodeJS.Timeout | undefined;
		const escalated = new Promise<void>((resolve) => {
			killTimer = setTimeout(() => {
				signalGroup(pid, 'SIGKILL');
				resolve();
			}, graceMs);
		});
		await Promise.race([exited, escalated]);
		clearTimeout(killTimer);
		await exited;
	};

	return {
		child,
		exited,
		stdout: () => stdoutChunks.join(''),
		stderr: () => stderrChunks.join(''),
		stop,
		kill: async () => {
			if (!hasExited) signalGroup(pid, 'SIGKILL');
			await exited;
		},
	};
}

export interface RunResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs a command to completion; kills its group if it outlives the timeout. */
export async function runGroup(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs: number },
): Promise<RunResult> {
	const proc = spawnGroup(command, args, options);
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		void proc.stop(2_000);
	}, options.timeoutMs);
	const code = await proc.exited;
	clearTimeout(timer);
	if (timedOut) {
		throw new Error(
			`${args.slice(0, 2).join(' ')} did not finish within ${options.timeoutMs} ms\n${proc.stdout()}${proc.stderr()}`,
		);
	}
	return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}
