import * as fs from 'node:fs';

/**
 * Peak memory of a process group (n8n plus the task runners it forks), read from /proc. Two figures:
 * - the peak of the group's summed RSS over periodic samples (what the machine had to hold at once);
 * - the largest VmHWM of any member: the kernel's exact peak RSS of one process, so a spike between two
 *   samples is still seen for the biggest process.
 */

export interface GroupMemory {
	/** Largest sum of VmRSS over the group's members, over all samples. */
	peakGroupRssBytes: number;
	/** Largest VmHWM (peak RSS the kernel recorded) of any single member. */
	peakProcessHwmBytes: number;
	samples: number;
	/** [Date.now(), summed VmRSS] per sample, to find the peak while one node ran. */
	series: Array<[number, number]>;
	/**
	 * [Date.now(), CPU seconds (user + sys) the group's members used so far] per sample. A member that exited
	 * keeps its last sampled figure, so the sum never goes down.
	 */
	cpuSeries: Array<[number, number]>;
}

interface ProcessMemory {
	rssBytes: number;
	hwmBytes: number;
}

/** `/proc/<pid>/stat`: the process group id is the 3rd field after the parenthesised command name. */
export function processGroupOf(pid: number): number | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return Number(fields[2]);
	} catch {
		return undefined;
	}
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux's supported architectures). */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (utime + stime, not the children's) a process used so far, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
	} catch {
		return undefined;
	}
}

export function processMemory(pid: number): ProcessMemory | undefined {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		return { rssBytes: kibField(status, 'VmRSS'), hwmBytes: kibField(status, 'VmHWM') };
	} catch {
		return undefined;
	}
}

function kibField(status: string, name: string): number {
	const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
	return match ? Number(match[1]) * 1024 : 0;
}

export function groupMembers(groupId: number): number[] {
	const members: number[] = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const pid = Number(entry);
		if (processGroupOf(pid) === groupId) members.push(pid);
	}
	return members;
}

/** Samples a process group every `intervalMs` until `stop()`; the group may come and go meanwhile. */
export class GroupMemorySampler {
	private peakGroupRssBytes = 0;
	private peakProcessHwmBytes = 0;
	private samples = 0;
	private readonly series: Array<[number, number]> = [];
	private readonly cpuSeries: Array<[number, number]> = [];
	private readonly cpuByPid = new Map<number, number>();
	private readonly timer: NodeJS.Timeout;

	constructor(
		private readonly groupId: number,
		intervalMs = 100,
	) {
		this.sample();
		this.timer = setInterval(() => this.sample(), intervalMs);
	}

	sample(): void {
		let groupRss = 0;
		for (const pid of groupMembers(this.groupId)) {
			const memory = processMemory(pid);
			if (!memory) continue;
			groupRss += memory.rssBytes;
			this.peakProcessHwmBytes = Math.max(this.peakProcessHwmBytes, memory.hwmBytes);
			const cpu = processCpuSeconds(pid);
			if (cpu !== undefined) this.cpuByPid.set(pid, cpu);
		}
		this.peakGroupRssBytes = Math.max(this.peakGroupRssBytes, groupRss);
		this.samples++;
		const now = Date.now();
		if (groupRss > 0) this.series.push([now, groupRss]);
		let cpuSeconds = 0;
		for (const each of this.cpuByPid.values()) cpuSeconds += each;
		this.cpuSeries.push([now, cpuSeconds]);
	}

	stop(): GroupMemory {
		clearInterval(this.timer);
		return {
			peakGroupRssBytes: this.peakGroupRssBytes,
			peakProcessHwmBytes: this.peakProcessHwmBytes,
			samples: this.samples,
			series: this.series,
			cpuSeries: this.cpuSeries,
		};
	}
}

export interface WindowMemory {
	/** Group RSS at the last sample before the window opened (0 when there is none). */
	atStartBytes: number;
	/** Largest group RSS sampled inside the window (or the start figure when no sample fell inside). */
	peakBytes: number;
}

/** Memory while something ran from `startMs` for `durationMs`, e.g. one node of an execution. */
export function memoryInWindow(
	series: Array<[number, number]>,
	startMs: number,
	durationMs: number,
): WindowMemory {
	let atStartBytes = 0;
	let peakBytes = 0;
	for (const [time, rss] of series) {
		if (time <= startMs) atStartBytes = rss;
		else if (time <= startMs + durationMs) peakBytes = Math.max(peakBytes, rss);
	}
	return { atStartBytes, peakBytes: Math.max(peakBytes, atStartBytes) };
}

export function mebibytes(bytes: number): number {
	return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}

/**
 * CPU seconds a group used while something ran from `startMs` for `durationMs`: the figure at the first sample at
 * or after the end minus the one at the last sample at or before the start (so it may include up to one sampling
 * interval on each side). NaN when the series does not cover the window.
 */
export function cpuInWindow(
	cpuSeries: Array<[number, number]>,
	startMs: number,
	durationMs: number,
): number {
	let before: number | undefined;
	let after: number | undefined;
	for (const [time, seconds] of cpuSeries) {
		if (time <= startMs) before = seconds;
		if (time >= startMs + durationMs && after === undefined) after = seconds;
	}
	if (before === undefined || after === undefined) return Number.NaN;
	return Math.round((after - before) * 100) / 100;
}
