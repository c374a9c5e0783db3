/**
 * An n8n of a test's own with the durable scheduler on (the default from n8n
 * 2.45; in 2.41 behind four settings), running the polling trigger against a
 * sandbox of its own: it can be stopped, changed and started again. Also what
 * the tests read of it: its log, its database (the scheduler's tasks) and the
 * sandbox's request log, grouped into polls.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningSandbox } from '../../../sandbox/index';
import { SANDBOX_KEYS, startSandbox } from '../../../sandbox/index';
import { SandboxControl } from '../../../sandbox/client';
import type { LogEntry } from '../../../sandbox/requestlog';
import { type N8nCredential, N8nUserFolder, type N8nWorkflow } from '../../../scripts/n8n-instance';
import type { N8nRestClient } from '../../../scripts/n8n-rest';
import { LOCAL_OWNER } from '../../../scripts/n8n-rest';
import { N8nDatabase } from '../../../scripts/n8n-database';
import { waitFor } from '../../../scripts/processes';
import { ensureRuntime, type N8nRuntime } from '../../../scripts/n8n-runtime';
import type { N8nServer } from '../../../scripts/n8n-server';
import { freePort } from '../../../scripts/ports';
import { SANDBOX_CREDENTIAL, sandboxCredential } from '../../../scripts/workflows';
import { chain, every15Seconds, NODE_TYPES } from '../workflows/build';
import { ARTIFACTS_DIR, readState } from './state';

/** n8n 2.41's switches for what n8n 2.45 does by default: poll triggers as durable schedules with durable cursors. */
export const DURABLE_SCHEDULER = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
} as const;

/** What n8n logs when it gives up on a poll that ran past N8N_SCHEDULER_POLL_TIMEOUT. */
export const ABANDONED = 'Poll exceeded its timeout and was abandoned';
/** What the trigger logs (debug) when another poll of it is running or being committed. */
export const SKIPPED = 'Poll skipped: another poll of this trigger is running or committing';

export const TRIGGER_NODE = 'Inspection Business Trigger';

export { every15Seconds };

/**
 * This n8n's scheduling priority (nice): above the rest of `npm test`, which runs beside it. The
 * tests here time n8n's scheduler (polls abandoned at a 1 or 10 s timeout, each poll within it):
 * a poll must not miss its timeout because the suite's other n8n instances and browsers, or a
 * busy neighbour, hold the CPU. The test file's own process (which runs the sandbox) gets it too.
 * Without root both stay at the normal priority.
 */
const SCHEDULER_PRIORITY = -5;

export function pollWorkflow(id: string, events: string[], pollTimes: unknown): N8nWorkflow {
	return chain(id, `Durable poll ${id}`, [
		{
			name: TRIGGER_NODE,
			type: NODE_TYPES.poll,
			typeVersion: 1,
			parameters: { pollTimes, events, options: {} },
			credentials: { inspectionBusinessApi: SANDBOX_CREDENTIAL },
		},
	]);
}

export interface ScheduledTask {
	id: number;
	status: string;
	runAt: string;
	startedAt: string | null;
	finishedAt: string | null;
}

/** A time n8n's sqlite stores ('2026-11-24 21:54:30.011', UTC) in ms. */
export const sqliteTime = (value: string) => Date.parse(`${value.replace(' ', 'T')}Z`);

export class DurableN8n {
	readonly control: SandboxControl;
	server?: N8nServer;
	/** Everything n8n printed since `start`, across restarts. */
	log = '';

	private constructor(
		readonly runtime: N8nRuntime,
		readonly sandbox: RunningSandbox,
		readonly userFolder: N8nUserFolder,
		private readonly workDir: string,
		private readonly logFile: string,
	) {
		this.control = new SandboxControl(sandbox.baseUrl);
	}

	/**
	 * The sandbox (at the real 120 requests a minute) and a copy of the fresh template (the
	 * package installed, the owner set up) with `workflows` imported and published.
	 */
	static async prepare(
		name: string,
		workflows: (sandboxUrl: string) => N8nWorkflow[],
		seed: 'demo' | 'large' = 'demo',
		moreCredentials: (sandboxUrl: string) => N8nCredential[] = () => [],
	): Promise<DurableN8n> {
		const state = readState();
		// The sandbox answers from this process: it keeps time for the polls too.
		try {
			setPriority(SCHEDULER_PRIORITY);
		} catch {
			// Not allowed here (a priority above normal needs root).
		}
		const runtime = await ensureRuntime();
		const workDir = mkdtempSync(path.join(tmpdir(), `ib-${name}-`));
		const sandbox = await startSandbox({ port: 0, seed });
		const listed = workflows(sandbox.baseUrl);
		const userFolder = new N8nUserFolder(runtime, path.join(workDir, 'n8n'));
		cpSync(state.templates.fresh, userFolder.folder, { recursive: true });
		await userFolder.importCredentials([
			sandboxCredential(sandbox.baseUrl),
			...moreCredentials(sandbox.baseUrl),
		]);
		await userFolder.importWorkflows(listed);
		await userFolder.publishWorkflows(listed.map((workflow) => workflow.id));
		const logFile = path.join(ARTIFACTS_DIR, `n8n-${name}.log`);
		return new DurableN8n(runtime, sandbox, userFolder, workDir, logFile);
	}

	get rest(): N8nRestClient {
		if (!this.server) throw new Error('n8n is not running');
		return this.server.rest;
	}

	/** `n8n start` with the durable scheduler, debug logs and `env`; signs in as the owner. */
	async start(env: Record<string, string> = {}): Promise<void> {
		const marker = `\n===== n8n start ${new Date().toISOString()} ${JSON.stringify(env)}\n`;
		this.log += marker;
		appendFileSync(this.logFile, marker);
		this.server = await this.userFolder.startServer(await freePort(), {
			env: { ...DURABLE_SCHEDULER, N8N_LOG_LEVEL: 'debug', ...env },
			priority: SCHEDULER_PRIORITY,
			ui: false,
			onOutput: (chunk) => {
				this.log += chunk;
				appendFileSync(this.logFile, chunk);
			},
		});
		await this.server.rest.login(LOCAL_OWNER);
	}

	async stop(): Promise<void> {
		await this.server?.stop();
		this.server = undefined;
	}

	/** How often n8n's log says `line` since `from` (a length of `log`). */
	count(line: string, from = 0): number {
		return this.log.slice(from).split(line).length - 1;
	}

	/** The poll tasks the durable scheduler ran, oldest first. */
	async tasks(): Promise<ScheduledTask[]> {
		return await new N8nDatabase(this.runtime, this.userFolder.folder).query<ScheduledTask>(
			"SELECT id, status, runAt, startedAt, finishedAt FROM scheduled_task WHERE taskType LIKE '%poll%' ORDER BY runAt, id",
		);
	}

	/**
	 * The trigger's state as n8n last committed it (its durable cursor, which a
	 * restart keeps); null before n8n stored one. The test poll at publication
	 * and a poll n8n stops or abandons commit nothing.
	 */
	async committedState(workflowId: string): Promise<Record<string, unknown> | null> {
		const [row] = await new N8nDatabase(this.runtime, this.userFolder.folder).query<{
			cursor: string | null;
		}>('SELECT cursor FROM poller_state WHERE workflowId = ?', [workflowId]);
		return row?.cursor ? (JSON.parse(row.cursor) as Record<string, unknown>) : null;
	}

	/**
	 * The tasks whose poll the trigger skipped as overlapping (SKIPPED, then
	 * n8n's "nothing to hand off" for that task): they make no request, but
	 * the requests of the poll they overlapped fall inside their times.
	 */
	skippedTaskIds(): Set<number> {
		const ids = new Set<number>();
		for (const after of this.log.split(SKIPPED).slice(1)) {
			const id = /nothing to hand off[^\n]*?"taskId": "(\d+)"/.exec(after)?.[1];
			if (id !== undefined) ids.add(Number(id));
		}
		return ids;
	}

	/** The workflow credential's requests (the tests' own reads use another key). */
	async triggerRequests(): Promise<LogEntry[]> {
		return (await this.control.requests({ pathPrefix: '/v1/' })).data.filter(
			(entry) => entry.key === SANDBOX_KEYS.acmeOwner,
		);
	}

	async dispose(): Promise<void> {
		await this.stop();
		await this.sandbox.stop();
		rmSync(this.workDir, { recursive: true, force: true });
	}
}

/** A request that starts a walk over a whole list: no cursor and no updated_since. */
export const startsWholeWalk = (entry: LogEntry) =>
	entry.query.cursor === undefined && entry.query.updated_since === undefined;

export interface PollRun {
	task: ScheduledTask;
	ms: number;
	/** Requests made while it ran (a poll that overlaps a running one makes none: see SKIPPED). */
	pages: number;
}

/**
 * Each finished task's duration and pages; a request goes to the earliest task
 * running when it was made. `skipped` (see skippedTaskIds): tasks left out, so
 * that a poll skipped as overlapping does not count as one with requests.
 */
export function pollRuns(
	tasks: ScheduledTask[],
	requests: LogEntry[],
	skipped: ReadonlySet<number> = new Set(),
): PollRun[] {
	const runs = tasks
		.filter((task) => task.startedAt !== null && task.finishedAt !== null)
		.filter((task) => !skipped.has(task.id))
		.map((task) => ({
			task,
			started: sqliteTime(task.startedAt!),
			finished: sqliteTime(task.finishedAt!),
			pages: 0,
		}));
	for (const entry of requests) {
		const at = Date.parse(entry.time);
		const run = runs.find(({ started, finished }) => at >= started && at <= finished);
		if (run) run.pages++;
	}
	return runs.map(({ task, started, finished, pages }) => ({
		task,
		ms: finished - started,
		pages,
	}));
}

type Json = Record<string, unknown>;

/** A record's version: its id and `updated_at`. */
export const versionOf = (record: Json) => `${String(record.id)}@${String(record.updated_at)}`;

/**
 * Every item the trigger workflow emitted, read execution by execution (finished ones, each
 * once), across restarts of its n8n; and the checks the durable files make on them.
 */
export class Reports {
	readonly items: Json[] = [];
	private readonly read = new Set<string>();

	constructor(
		private readonly n8n: DurableN8n,
		private readonly workflowId: string,
	) {}

	/** Reads the executions that finished since the last call; their items. */
	async collect(): Promise<Json[]> {
		const fresh: Json[] = [];
		for (const execution of (await this.n8n.rest.executions(this.workflowId)).reverse()) {
			if (
				this.read.has(execution.id) ||
				!['success', 'error', 'crashed'].includes(execution.status)
			)
				continue;
			this.read.add(execution.id);
			const data = await this.n8n.rest.executionData<{
				resultData: {
					runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Json }>> } }>>;
				};
			}>(execution.id);
			for (const run of data.resultData.runData[TRIGGER_NODE] ?? [])
				fresh.push(...(run.data?.main[0] ?? []).map((item) => item.json));
		}
		this.items.push(...fresh);
		return fresh;
	}

	/** The versions of the records the items carry. */
	versions(): string[] {
		return this.items.map((item) => versionOf(item.record as Json));
	}

	/** Waits until every version in `expected` (id@updated_at → event) has been reported. */
	async until(expected: Map<string, string>, timeoutMs: number, intervalMs = 2000): Promise<void> {
		await waitFor(
			`${expected.size} changes to be reported`,
			async () => {
				await this.collect();
				const versions = new Set(this.versions());
				return [...expected.keys()].every((version) => versions.has(version)) || undefined;
			},
			{ timeoutMs, intervalMs },
		);
	}

	/** The expected versions not reported exactly once with their event, with what was reported. */
	notOnce(expected: Map<string, string>): Array<[string, string[] | undefined]> {
		const events = new Map<string, string[]>();
		for (const item of this.items) {
			const version = versionOf(item.record as Json);
			if (expected.has(version))
				events.set(version, [...(events.get(version) ?? []), String(item.event)]);
		}
		return [...expected]
			.filter(([version, event]) => events.get(version)?.join() !== event)
			.map(([version]) => [version, events.get(version)]);
	}
}
