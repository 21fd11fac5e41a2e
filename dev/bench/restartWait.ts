/**
 * `node scripts/run-ts.js dev/bench/restartWait.ts`: how long events wait after an n8n restart.
 *
 * After a start the SIP trigger refuses (503) every production delivery signed up to start + Timestamp Tolerance, so
 * that a copy captured before the start cannot run again. This drives the trigger's own delivery code
 * (`handleDelivery`, with a record begun at the restart and a clock it is handed) with the archive's retry schedule
 * (immediately, 5 s, 5 min, 30 min, ...), for events first sent at every second of the hour after a restart, and
 * prints, per tolerance and sender clock offset, how many were delayed and how long the wait was. Nothing is timed:
 * the figures follow from the schedule and the rule, and the same rule in the node decides them.
 */
import * as path from 'node:path';

import { handleDelivery, type TriggerSettings } from '../../nodes/ArchiveSipStatusTrigger/delivery';
import { AcceptedIdRecord } from '../../nodes/ArchiveSipStatusTrigger/replay/acceptedIds';
import { parseSigningKeys } from '../../nodes/ArchiveSipStatusTrigger/verify/secrets';
import { signedHeaders, sipEventBody } from '../emulators/webhook/fixtures';
import { generateSecret, RETRY_SCHEDULE_SECONDS } from '../emulators/webhook/sender';

export interface RestartWaitRow {
	toleranceSeconds: number;
	/** Sender's clock minus n8n's, in seconds. */
	senderOffsetSeconds: number;
	eventsSent: number;
	delayed: number;
	/** Seconds from an event's first attempt to the attempt that was accepted, over the delayed events. */
	medianWaitSeconds: number;
	maxWaitSeconds: number;
	/** Events the schedule never got accepted (none expected). */
	neverAccepted: number;
}

const RESTART_MS = 1_800_000_000_000;

async function waitOf(
	eventIndex: number,
	firstSentSeconds: number,
	settings: TriggerSettings,
	offsetSeconds: number,
	secret: string,
): Promise<number | undefined> {
	const record = new AcceptedIdRecord(1_000, 72 * 3600 * 1000, () => RESTART_MS);
	const body = sipEventBody();
	let sentAt = firstSentSeconds;
	for (const delay of [0, ...RETRY_SCHEDULE_SECONDS]) {
		sentAt += delay;
		const nowMs = RESTART_MS + sentAt * 1000;
		const signedAt = Math.floor(nowMs / 1000) + offsetSeconds;
		const headers = signedHeaders(secret, `msg_restart_${eventIndex}`, signedAt, body);
		const result = await handleDelivery(headers, Buffer.from(body), settings, { record, nowMs });
		if (result.status === 204) return sentAt - firstSentSeconds;
	}
	return undefined;
}

export async function runRestartWait(
	options: { tolerances: number[]; offsets: number[]; hourSeconds: number } = {
		tolerances: [60, 300, 3600],
		offsets: [-30, 0, 30],
		hourSeconds: 3600,
	},
): Promise<RestartWaitRow[]> {
	const secret = generateSecret();
	// The key bytes as the trigger reads them from its credential.
	const { keys } = parseSigningKeys(secret, '');
	const rows: RestartWaitRow[] = [];
	for (const toleranceSeconds of options.tolerances) {
		const settings: TriggerSettings = {
			keys,
			toleranceSeconds,
			outcomeFilter: 'both',
			typePatterns: [],
			includeRawEvent: false,
			sendFilteredOut: false,
		};
		for (const senderOffsetSeconds of options.offsets) {
			const waits: number[] = [];
			let neverAccepted = 0;
			for (let second = 0; second < options.hourSeconds; second++) {
				const wait = await waitOf(second, second, settings, senderOffsetSeconds, secret);
				if (wait === undefined) neverAccepted++;
				else if (wait > 0) waits.push(wait);
			}
			waits.sort((left, right) => left - right);
			rows.push({
				toleranceSeconds,
				senderOffsetSeconds,
				eventsSent: options.hourSeconds,
				delayed: waits.length,
				medianWaitSeconds: waits[Math.floor(waits.length / 2)] ?? 0,
				maxWaitSeconds: waits[waits.length - 1] ?? 0,
				neverAccepted,
			});
		}
	}
	return rows;
}

function render(rows: RestartWaitRow[]): string {
	const lines = [
		'| Timestamp Tolerance | Sender clock | Events (one a second, first hour) | Delayed | Median wait | Longest wait |',
		'|---|---|---|---|---|---|',
	];
	for (const row of rows) {
		const offset = `${row.senderOffsetSeconds > 0 ? '+' : ''}${row.senderOffsetSeconds} s`;
		lines.push(
			`| ${row.toleranceSeconds} s | ${offset} | ${row.eventsSent} | ${row.delayed} | ${row.medianWaitSeconds} s | ${row.maxWaitSeconds} s |`,
		);
	}
	return lines.join('\n');
}

// run-ts.js runs the bundle with process.argv[1] set to it; under jest this file is only imported.
if (process.argv[1]?.endsWith(path.join('bench', 'restartWait.js'))) {
	void runRestartWait().then((rows) => console.log(render(rows)));
}
