/**
 * The figures `npm run bench:trigger-state` measures for one account, what it prints of them, and
 * issue 45's goals checked on them (tested in test/bench/trigger-state-report.test.ts).
 */

/** MB here is 2^20 bytes, as the goals count. */
export const MB = 2 ** 20;
export const GOALS = {
	/** The state n8n stores, on the large account. */
	stateBytes: 1 * MB,
	/** What n8n writes to disk for a poll that emits. */
	emitWriteBytes: 2 * MB,
	/** An idle poll's CPU on the large account over the same on the small one. */
	idleCpuRatio: 2,
} as const;

export interface StateFigures {
	/** The workflow's static data column, bytes. */
	staticDataBytes: number;
	/** The durable scheduler's poll cursor (poller_state), bytes; 0 when none. */
	cursorBytes: number;
	/** Bytes of JSON per stored part: contacts, inspections, events (appointments), attachments, other. */
	parts: Record<string, number>;
}

/** n8n's CPU time and writes over a span of time, and the trigger's polls in it. */
export interface Window {
	ms: number;
	cpuMs: number;
	wchar: number;
	writeBytes: number;
	/** Polls that made requests (the sandbox's request log). */
	polls: number;
	pollsReadingBack: number;
	/** Poll tasks the durable scheduler started (SQLite only; 0 under the default poller). */
	tasksStarted: number;
	emitted: boolean;
}

export interface EmitWindow {
	ms: number;
	cpuMs: number;
	wchar: number;
	writeBytes: number;
	polls: number;
	/** SQLite: growth of the database file and its WAL; Postgres: WAL bytes written. */
	databaseGrowth: number;
	postgresWchar?: number;
	postgresWriteBytes?: number;
	/** The stored state's generation before the change and at the window's end: did n8n store the poll? */
	generations?: [number | null, number | null];
}

export interface AccountFigures {
	seed: string;
	/** The machine's 1-minute load average when the account started and ended. */
	loadAverage: number[];
	baseline: {
		wallS: number;
		polls: number;
		requests: number;
		requestsByList: Record<string, number>;
		/** Each baseline poll: when it started (s after the first), its last request (s after its start), its requests. */
		pollSpans: Array<{ atS: number; lastRequestAfterS: number; requests: number }>;
		n8nBootS: number;
		cpuS: number;
		peakMemoryBytes: number;
		stored: StateFigures;
	};
	idle: Window[];
	/** Idle windows again once the emits are done, minutes after n8n's start. */
	idleLater?: Window[];
	restart: {
		storedBefore: StateFigures;
		/** The lists whose walk the stored state had begun, and the first request of each list read again. */
		walksBegun?: string[];
		firstRequests?: Array<{ list: string; query: Record<string, string | string[]> }>;
		startedOver: boolean;
		pollsReadingBack: number;
		requests: number;
		requestsByList: Record<string, number>;
		wallS: number;
	};
	emits: EmitWindow[];
	storedAfterFirst: StateFigures;
	floor: Window;
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
export const mb = (bytes: number) => `${(bytes / MB).toFixed(2)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** n8n's CPU per idle poll in each window, ms. */
export const idleCpuPerPoll = (account: AccountFigures, windows = account.idle) =>
	windows.filter((w) => w.polls > 0).map((w) => w.cpuMs / w.polls);

/** n8n's CPU per 10 s with the workflow unpublished, ms. */
export const floorPer10s = (account: AccountFigures) =>
	(account.floor.cpuMs * 10_000) / account.floor.ms;

/** What n8n wrote for each emitting poll, bytes: the window's writes less its idle polls'. */
export function emitWrites(account: AccountFigures, field: 'wchar' | 'writeBytes'): number[] {
	const idlePerPoll =
		account.idle.reduce((sum, w) => sum + w[field], 0) /
		Math.max(
			1,
			account.idle.reduce((sum, w) => sum + w.polls, 0),
		);
	return account.emits.map((emit) => emit[field] - idlePerPoll * Math.max(0, emit.polls - 1));
}

/** The larger of what n8n stores: the static data or the poll cursor. */
export const storedBytes = (state: StateFigures) =>
	Math.max(state.staticDataBytes, state.cursorBytes);

const describeState = (state: StateFigures) =>
	`static data ${mb(state.staticDataBytes)}, poll cursor ${mb(state.cursorBytes)}; ` +
	Object.entries(state.parts)
		.filter(([, bytes]) => bytes > 1024)
		.map(([part, bytes]) => `${part} ${mb(bytes)}`)
		.join(', ');

/** What one account measured, in lines to read (stdout). */
export function printAccount(
	account: AccountFigures,
	settings: { scheduler: string; database: string; packageDir: string },
): void {
	const { baseline, restart, floor } = account;
	const cpu = idleCpuPerPoll(account);
	const wchar = emitWrites(account, 'wchar');
	const written = emitWrites(account, 'writeBytes');
	const lines = [
		``,
		`== ${account.seed} account: ${settings.packageDir}, ${settings.scheduler}, ${settings.database}; load ${account.loadAverage.map((l) => l.toFixed(1)).join(' → ')}`,
		`Baseline: ${baseline.wallS.toFixed(0)} s, ${baseline.polls} polls, ${baseline.requests} requests (${JSON.stringify(baseline.requestsByList)}); n8n CPU ${baseline.cpuS.toFixed(1)} s, peak memory ${mb(baseline.peakMemoryBytes)} (n8n booted in ${baseline.n8nBootS.toFixed(0)} s)`,
		`Stored after the baseline: ${describeState(baseline.stored)}`,
		`Stored after the first emitting poll: ${describeState(account.storedAfterFirst)}`,
		`Idle poll, n8n CPU: ${cpu.map(seconds).join(', ')} (median ${seconds(median(cpu))}); polls per minute ${account.idle.map((w) => ((w.polls * 60_000) / w.ms).toFixed(1)).join(', ')}${account.idle.some((w) => w.tasksStarted) ? `; durable tasks started per minute ${account.idle.map((w) => ((w.tasksStarted * 60_000) / w.ms).toFixed(1)).join(', ')}` : ''}`,
		...(account.idleLater?.length
			? [
					`Idle poll later, n8n CPU: ${idleCpuPerPoll(account, account.idleLater).map(seconds).join(', ')}`,
				]
			: []),
		`Idle poll, n8n writes: ${account.idle.map((w) => `${(w.wchar / Math.max(1, w.polls) / 1024).toFixed(1)} KB`).join(', ')} (wchar per poll)`,
		`Unpublished, n8n CPU per 10 s: ${seconds(floorPer10s(account))}; idle poll less that: median ${seconds(median(cpu) - floorPer10s(account))}`,
		`Emitting poll, n8n writes: wchar ${wchar.map(mb).join(', ')} (mean ${mb(mean(wchar))}); write_bytes ${written.map(mb).join(', ')}; database growth ${account.emits.map((e) => mb(e.databaseGrowth)).join(', ')}; stored generation before → after ${account.emits.map((e) => (e.generations ?? []).join('→')).join(', ')}`,
		...(account.emits[0]?.postgresWchar !== undefined
			? [
					`Emitting poll, Postgres writes: wchar ${account.emits.map((e) => mb(e.postgresWchar ?? 0)).join(', ')}; WAL ${account.emits.map((e) => mb(e.databaseGrowth)).join(', ')}`,
				]
			: []),
		`Restart right after the baseline: stored before it ${mb(storedBytes(restart.storedBefore))}; ${restart.pollsReadingBack === 0 ? 'the next polls went on from the stored state (no list read again)' : `${restart.startedOver ? 'the baseline started over' : 'the baseline went on from the stored walk'}: ${restart.pollsReadingBack} polls, ${restart.requests} requests (${JSON.stringify(restart.requestsByList)}), ${restart.wallS.toFixed(0)} s`}`,
		`Floor window: ${JSON.stringify({ ...floor, cpuMs: Math.round(floor.cpuMs) })}`,
	];
	console.log(lines.join('\n'));
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** Prints issue 45's goals that the accounts measured allow; false when one is missed. */
export function goals(accounts: AccountFigures[]): boolean {
	const large = accounts.find((account) => account.seed === 'large');
	const small = accounts.find((account) => account.seed === 'small');
	const checks: Array<[string, boolean]> = [];
	if (large) {
		const stored = Math.max(
			storedBytes(large.baseline.stored),
			storedBytes(large.storedAfterFirst),
			storedBytes(large.restart.storedBefore),
		);
		checks.push([
			`Stored state on the large account ${mb(stored)} (goal ≤ ${mb(GOALS.stateBytes)})`,
			stored <= GOALS.stateBytes,
		]);
		// The mean: a window in which SQLite checkpoints also writes back what earlier polls wrote.
		const writes = emitWrites(large, 'wchar');
		checks.push([
			`An emitting poll writes ${mb(mean(writes))} on the large account, mean of ${writes.length} (the largest window ${mb(Math.max(...writes))}) (goal ≤ ${mb(GOALS.emitWriteBytes)})`,
			mean(writes) <= GOALS.emitWriteBytes,
		]);
		checks.push([
			`A restart right after the baseline ${large.restart.startedOver ? 'started it over' : 'did not start it over'}`,
			!large.restart.startedOver,
		]);
	}
	if (large && small) {
		const ratio = median(idleCpuPerPoll(large)) / median(idleCpuPerPoll(small));
		checks.push([
			`An idle poll's n8n CPU, large / small: ${ratio.toFixed(2)} (goal ≤ ${GOALS.idleCpuRatio})`,
			ratio <= GOALS.idleCpuRatio,
		]);
	}
	console.log(`\nGoals:\n${checks.map(([what, ok]) => `  ${verdict(ok)}  ${what}`).join('\n')}`);
	return checks.every(([, ok]) => ok);
}
