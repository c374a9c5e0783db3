/**
 * The shapes the poll (index.ts) and its walks (listWalk.ts) share: the list
 * source a poll reads from and the poll's options. The items are judge/items.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from '../catalog';
import type { Resource } from '../memory';

export interface ListRequest {
	resource: Resource;
	query: IDataObject;
	cursor: string | null;
}

export interface ListPage {
	records: IDataObject[];
	nextCursor: string | null;
	/** The API refused a cursor kept from an earlier poll (400): the walk starts its window over. */
	staleCursor?: boolean;
	/**
	 * The poll's time ran out while this page was asked (a wait for the rate
	 * limit, a slow answer): the walk stops before it, and the next poll asks it again.
	 */
	outOfTime?: boolean;
	/**
	 * The server's time when it answered (ms; the node's source reads the
	 * response's Date header, else the local clock). No high-water mark passes
	 * it, so a record dated in the future cannot hide the changes after it.
	 * Undefined: no ceiling.
	 */
	serverTime?: number;
	/**
	 * This answer's time dated the start of a baseline (PollOptions.baselineBegan):
	 * what it lists existed when the baseline began, whatever its updated_at
	 * says within the second the Date header names.
	 */
	datedBaseline?: boolean;
}

/** One page per call. The node's source goes through the transport; the tests' source is an in-memory API. */
export interface ListSource {
	fetch(request: ListRequest): Promise<ListPage>;
}

/** A poll's settings: the node's options, complete (options.ts applies the defaults), and its clock. */
export interface PollOptions {
	events: readonly PollEvent[];
	overlapMs: number;
	emitExisting: boolean;
	/**
	 * Milliseconds this poll may spend; `now` (the local clock) measures it, and
	 * the time between answers, to tell a server clock set back.
	 */
	budgetMs: number;
	now: () => number;
	/** Hours before the scheduled time that Inspection Starting comes. */
	startingHours: number;
	/** Hours after an inspection ended that Inspection Ended comes. */
	endedHours: number;
	/** Hours late past which an Ended moment is skipped, not sent; 0: never skipped. */
	endedLateHours: number;
	/** The inspection statuses the time moments count. */
	momentStatuses: readonly string[];
	/** Only Trigger Once: the moments that allow it come at most once per inspection. */
	onlyOnce: boolean;
	/** Node version 2: one item per moment; version 1: one item per change. */
	oneItemPerMoment: boolean;
	/**
	 * When a baseline that begins in this poll began, if known before its first
	 * answer (the API's time, ms): versions dated after it are reported.
	 */
	baselineBegan?: number;
	/** Test knob: the most records a resource holds the memory of. */
	recordCap?: number;
	/** Test knob: the state's budget in characters (memory/state.ts STATE_BUDGET). */
	stateBudget?: number;
	/** Where a poll says what it did not send (Ended moments too late); n8n's logger in the node. */
	log?: (message: string) => void;
}
