import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions, IRun } from 'n8n-workflow';

import { setBounded } from '../../shared/boundedCache';
import { readCursor, saveCursor } from './cursor';
import type { Cursor } from './cursor';

/**
 * At-least-once delivery: a cursor saved with the emission would skip rows if n8n died before the execution
 * existed. So a poll emits with a promise n8n settles when the run has finished, and commits the moved cursor only
 * then (repeats, never gaps). A run not finished within "Re-Emit Unfinished Run After" (n8n never settles the
 * promise of an execution it could not create) is given up and its rows are polled again.
 */

interface PendingRun {
	/** The cursor after the run's rows, committed once the run finished. */
	cursor: Cursor;
	/** The committed cursor the run's rows were read after: a commit applies only on top of it. */
	basedOn: string;
	state: 'running' | 'finished' | 'failed';
	emittedAt: number;
}

/** One pending run per trigger node of an active workflow in this process. */
const pendingRuns = new Map<string, PendingRun>();
const MAX_PENDING_RUNS = 10_000;

/** Whether the poll may go on; `gaveUp` names a run given up on, whose rows will be emitted again. */
type Gate = { proceed: false } | { proceed: true; gaveUp?: 'unfinished' | 'failed' };

function runKey(ctx: IPollFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
}

function cursorIdentity(cursor: Cursor | undefined): string {
	return cursor
		? JSON.stringify([cursor.view, cursor.startFrom ?? null, cursor.time, cursor.key])
		: '';
}

/** Before a poll: commits a finished run's cursor, waits for a running one, or gives up on a failed or stale one. */
export function settlePendingRun(
	ctx: IPollFunctions,
	staticData: IDataObject,
	reemitAfterMs: number,
	now = Date.now(),
): Gate {
	const key = runKey(ctx);
	const pending = pendingRuns.get(key);
	if (!pending) return { proceed: true };
	if (pending.state === 'running' && now - pending.emittedAt < reemitAfterMs) {
		return { proceed: false };
	}
	pendingRuns.delete(key);
	if (pending.state === 'finished') {
		commit(staticData, pending);
		return { proceed: true };
	}
	return { proceed: true, gaveUp: pending.state === 'failed' ? 'failed' : 'unfinished' };
}

/** Moves the committed cursor to the run's, unless it moved meanwhile (committed already, or settings changed). */
function commit(staticData: IDataObject, run: PendingRun): void {
	if (cursorIdentity(readCursor(staticData)) === run.basedOn) saveCursor(staticData, run.cursor);
}

/**
 * Emits one poll's items as a run whose end commits `cursor` to `staticData` (the workflow's live static data, which
 * n8n saves with the next emission; the next poll commits it again if the workflow was reloaded meanwhile).
 */
export function emitConfirmed(
	ctx: IPollFunctions,
	staticData: IDataObject,
	items: INodeExecutionData[][],
	committed: Cursor | undefined,
	cursor: Cursor,
	now = Date.now(),
): void {
	const run: PendingRun = {
		cursor,
		basedOn: cursorIdentity(committed),
		state: 'running',
		emittedAt: now,
	};
	const key = runKey(ctx);
	setBounded(pendingRuns, key, run, MAX_PENDING_RUNS);
	const done = ctx.helpers.createDeferredPromise<IRun>();
	done.promise.then(
		() => {
			// A run that ended with an error still holds the rows (n8n can retry it): they count as delivered.
			run.state = 'finished';
			commit(staticData, run);
		},
		() => {
			run.state = 'failed';
		},
	);
	try {
		ctx.__emit(items, undefined, done);
	} catch (error) {
		// n8n refused the run outright: nothing to wait for, the cursor stays.
		if (pendingRuns.get(key) === run) pendingRuns.delete(key);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}

/** Polls under way, by trigger node: n8n starts a poll even while the last one is still reading the same rows. */
const pollsUnderWay = new Map<string, { since: number }>();

/**
 * Claims the trigger for one poll and returns its release, or undefined while another poll of it is under way. A
 * poll not ended after `staleAfterMs` (only a hung helper lasts that long) no longer holds the others back.
 */
export function claimPoll(
	ctx: IPollFunctions,
	staleAfterMs: number,
	now = Date.now(),
): (() => void) | undefined {
	const key = runKey(ctx);
	const running = pollsUnderWay.get(key);
	if (running && now - running.since < staleAfterMs) return undefined;
	const claim = { since: now };
	setBounded(pollsUnderWay, key, claim, MAX_PENDING_RUNS);
	return () => {
		if (pollsUnderWay.get(key) === claim) pollsUnderWay.delete(key);
	};
}
