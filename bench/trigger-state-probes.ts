/**
 * What `npm run bench:trigger-state` reads beside n8n: a process group's CPU time and bytes
 * written (/proc), the polls in the sandbox's request log, the trigger's state where n8n keeps it
 * (the workflow's static data, and under the durable scheduler its poll cursor), and how much
 * n8n's database wrote. SQLite is read with n8n's own Node (scripts/n8n-database.ts), Postgres
 * with psql (queue-services.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LogEntry } from '../sandbox/requestlog';
import { N8nDatabase } from '../scripts/n8n-database';
import type { N8nRuntime } from '../scripts/n8n-runtime';
import { queryPostgres } from './queue-services';

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS_PER_SECOND = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Requests further apart than this belong to different polls (idle polls come 10 s apart). */
const POLL_GAP_MS = 3000;

/** A process group's totals at one moment: CPU time, and bytes written (by syscall, and to storage). */
export interface Usage {
	at: number;
	cpuMs: number;
	/** Bytes passed to write calls: files, and also pipes and sockets. */
	wchar: number;
	/** Bytes the kernel accounted to storage (page-cache pages made dirty). */
	writeBytes: number;
	processes: number;
}

function procFields(pid: string): string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (field 2) is in parentheses and may hold spaces: split after it.
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined; // the process ended
	}
}

function procIo(pid: string): Record<string, number> {
	try {
		const io: Record<string, number> = {};
		for (const line of readFileSync(`/proc/${pid}/io`, 'utf8').split('\n')) {
			const [name, value] = line.split(':');
			if (value !== undefined) io[name.trim()] = Number(value);
		}
		return io;
	} catch {
		return {};
	}
}

/**
 * CPU time and writes of every process in the group `pgid` (n8n and its task runner, or Postgres
 * and its backends), with the children they reaped. Fields after the name: 3 pgrp, 11 utime,
 * 12 stime, 13 cutime, 14 cstime (0-based from the state).
 */
export function groupUsage(pgid: number): Usage {
	let ticks = 0;
	let wchar = 0;
	let writeBytes = 0;
	let processes = 0;
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		const fields = procFields(pid);
		if (!fields || Number(fields[2]) !== pgid) continue;
		processes++;
		ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
		const io = procIo(pid);
		wchar += io.wchar ?? 0;
		writeBytes += io.write_bytes ?? 0;
	}
	return {
		at: Date.now(),
		cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND,
		wchar,
		writeBytes,
		processes,
	};
}

export const usageBetween = (a: Usage, b: Usage) => ({
	ms: b.at - a.at,
	cpuMs: b.cpuMs - a.cpuMs,
	wchar: b.wchar - a.wchar,
	writeBytes: b.writeBytes - a.writeBytes,
});

/** n8n's peak resident memory so far (VmHWM), in bytes. */
export function peakMemory(pid: number): number {
	const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return match ? Number(match[1]) * 1024 : 0;
}

/** One poll as the request log shows it: requests with no gap of POLL_GAP_MS between them. */
export interface Poll {
	start: number;
	end: number;
	requests: LogEntry[];
}

export function pollsIn(entries: LogEntry[]): Poll[] {
	const polls: Poll[] = [];
	for (const entry of [...entries].sort((a, b) => Date.parse(a.time) - Date.parse(b.time))) {
		const at = Date.parse(entry.time);
		const last = polls[polls.length - 1];
		if (last && at - last.end <= POLL_GAP_MS) {
			last.end = at;
			last.requests.push(entry);
		} else polls.push({ start: at, end: at, requests: [entry] });
	}
	return polls;
}

/**
 * A poll that reads back: a list walked from its start, or from more than two days before the
 * poll (a baseline, or its next pages: they keep the walk's query). An idle poll reads each watched
 * list since a few minutes before the newest change it has seen; a second page of that (more than
 * 200 versions within the overlap, as the large seed has at the start of its day) is still idle.
 */
export function readsBack(poll: Poll): boolean {
	return poll.requests.some((request) => requestReadsBack(request, poll.start));
}

/**
 * Whether `polls` start a baseline over: a list whose walk the stored state had begun
 * (walksBegun) read again from before where it stood: no cursor, and no updated_since, or one
 * more than a day before the stored high-water mark (a window starts one overlap before it; an
 * expired cursor makes a walk start again at its newest record).
 */
export function startsOver(polls: Poll[], begun: Map<string, number | null>): boolean {
	return polls.some((poll) =>
		poll.requests.some((request) => {
			const list = request.path.replace('/v1/', '');
			if (!begun.has(list) || request.query.cursor !== undefined) return false;
			if (!requestReadsBack(request, poll.start)) return false;
			const mark = begun.get(list) ?? null;
			return mark === null || !(sinceOf(request) >= mark - DAY_MS);
		}),
	);
}

/** A request's updated_since (ms); NaN when it has none. */
const sinceOf = ({ query }: Pick<LogEntry, 'query'>) =>
	typeof query.updated_since === 'string' ? Date.parse(query.updated_since) : NaN;

/** One list request of a poll at `pollStart` that reads more than the last two days' changes. */
function requestReadsBack(request: Pick<LogEntry, 'query'>, pollStart: number): boolean {
	if (request.query.ids !== undefined) return false;
	return !(sinceOf(request) > pollStart - 2 * DAY_MS);
}

/**
 * Where the baseline ends in `polls` (in time order): the index of the first of two polls in a
 * row that read only what changed lately, after at least one that read back; -1 before that.
 */
export function baselineEnd(polls: Poll[]): number {
	const first = polls.findIndex(readsBack);
	if (first < 0) return -1;
	for (let i = first + 1; i + 1 < polls.length; i++)
		if (!readsBack(polls[i]) && !readsBack(polls[i + 1])) return i;
	return -1;
}

/** The trigger's state as n8n stored it: the node's static data, and the durable cursor. */
export interface StoredState {
	/** The workflow's static data column, as text (null before n8n saved any). */
	staticData: string | null;
	/** poller_state.cursor (the durable scheduler's copy), as text; null when there is none. */
	cursor: string | null;
}

export interface StateDatabase {
	stored(workflowId: string): Promise<StoredState>;
	/** A mark that grows with what the database wrote: SQLite's file sizes, Postgres's WAL position. */
	writeMark(): Promise<number>;
	/** The poll tasks the durable scheduler started (SQLite), by start time. */
	pollTaskStarts(): Promise<number[]>;
}

export class SqliteState implements StateDatabase {
	private readonly database: N8nDatabase;

	constructor(
		runtime: N8nRuntime,
		private readonly userFolder: string,
	) {
		this.database = new N8nDatabase(runtime, userFolder);
	}

	async stored(workflowId: string): Promise<StoredState> {
		const [row] = await this.database.query<{ staticData: string | null }>(
			'SELECT staticData FROM workflow_entity WHERE id = ?',
			[workflowId],
		);
		const [cursor] = await this.database.query<{ cursor: string | null }>(
			'SELECT cursor FROM poller_state WHERE workflowId = ?',
			[workflowId],
		);
		return { staticData: row?.staticData ?? null, cursor: cursor?.cursor ?? null };
	}

	/** database.sqlite and its write-ahead log: their sizes (bytes). */
	writeMark(): Promise<number> {
		const base = path.join(this.userFolder, '.n8n', 'database.sqlite');
		const size = (file: string) => {
			try {
				return statSync(file).size;
			} catch {
				return 0;
			}
		};
		return Promise.resolve(size(base) + size(`${base}-wal`));
	}

	async pollTaskStarts(): Promise<number[]> {
		const rows = await this.database.query<{ startedAt: string | null }>(
			"SELECT startedAt FROM scheduled_task WHERE taskType LIKE '%poll%' AND startedAt IS NOT NULL",
		);
		return rows.map((row) => Date.parse(`${row.startedAt!.replace(' ', 'T')}Z`));
	}
}

export class PostgresState implements StateDatabase {
	constructor(
		private readonly port: number,
		private readonly database: string,
	) {}

	private query(sql: string) {
		return queryPostgres(this.port, this.database, sql);
	}

	async stored(workflowId: string): Promise<StoredState> {
		const id = workflowId.replace(/'/g, "''");
		const [staticData] = await this.query(
			`SELECT coalesce("staticData"::text, '') FROM workflow_entity WHERE id = '${id}'`,
		);
		const [cursor] = await this.query(
			`SELECT coalesce(cursor::text, '') FROM poller_state WHERE "workflowId" = '${id}'`,
		);
		return { staticData: staticData || null, cursor: cursor || null };
	}

	/** The write-ahead log's position: every change Postgres writes passes through it. */
	async writeMark(): Promise<number> {
		const [lsn] = await this.query('SELECT pg_current_wal_lsn()');
		const [high, low] = lsn.split('/').map((part) => parseInt(part, 16));
		return high * 2 ** 32 + low;
	}

	/** Publishes the imported workflow as publishWorkflows does on SQLite. */
	async publish(workflowId: string): Promise<void> {
		const id = workflowId.replace(/'/g, "''");
		await this.query(
			`UPDATE workflow_entity SET active = true, "activeVersionId" = "versionId", "updatedAt" = now() WHERE id = '${id}'`,
		);
	}

	pollTaskStarts(): Promise<number[]> {
		return Promise.resolve([]);
	}
}

/** Bytes of a JSON text. */
export const bytesOf = (text: string | null) => (text === null ? 0 : Buffer.byteLength(text));

/**
 * The lists (contacts, inspections, events, attachments) whose walk the stored state had begun:
 * done with its first walk (live), or cut short with a page read.
 */
export function walksBegun(stored: StoredState, nodeName: string): Map<string, number | null> {
	const node = storedNode(stored, nodeName);
	const begun = new Map<string, number | null>();
	for (const [list, value] of Object.entries(node ?? {})) {
		const state = value as {
			phase?: string;
			highWaterMark?: number | null;
			unfinishedWalk?: { nextPageCursor?: unknown };
		};
		if (state?.phase === 'live' || (state?.unfinishedWalk?.nextPageCursor ?? null) !== null)
			begun.set(list, state.highWaterMark ?? null);
	}
	return begun;
}

/** The node's own part of the stored state (the durable cursor is the node's already). */
function storedNode(stored: StoredState, nodeName: string): Record<string, unknown> | undefined {
	const text = stored.cursor ?? stored.staticData;
	if (!text) return undefined;
	const parsed = JSON.parse(text) as Record<string, unknown>;
	return (stored.cursor ? parsed : parsed[`node:${nodeName}`]) as
		| Record<string, unknown>
		| undefined;
}

/** The stored state's generation (one more for every poll that changed it); null before any. */
export function storedGeneration(stored: StoredState, nodeName: string): number | null {
	const generation = storedNode(stored, nodeName)?.generation;
	return typeof generation === 'number' ? generation : null;
}

/**
 * The trigger's state per stored key (contacts, inspections, events = appointments, attachments,
 * and the rest together), in bytes of JSON: from the node's static data (`node:<name>`) or the
 * cursor (the node's static data itself).
 */
export function stateParts(stored: StoredState, nodeName: string): Record<string, number> {
	const node = storedNode(stored, nodeName);
	const parts: Record<string, number> = {};
	for (const [key, value] of Object.entries(node ?? {})) {
		const bytes = Buffer.byteLength(JSON.stringify(value));
		const name = ['contacts', 'inspections', 'events', 'attachments'].includes(key) ? key : 'other';
		parts[name] = (parts[name] ?? 0) + bytes;
	}
	return parts;
}
