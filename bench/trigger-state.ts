/**
 * `npm run bench:trigger-state`: what the polling trigger's state costs a real n8n, on a large
 * account and a small one. For each seed: the sandbox (real 120 requests a minute), a fresh n8n
 * user folder with the package of `--package-dir` packed and installed as a community package, and
 * one published workflow: the trigger with every event it offers, default options, polling every
 * 10 s; then `n8n start` (SQLite, or Postgres) under n8n's default poller or the durable scheduler
 * (the four settings n8n 2.45 turns on by default). It measures:
 *
 * - the baseline: wall time, polls and requests (the sandbox's request log), n8n's CPU time;
 * - the state n8n stored once the baseline is done (the workflow's static data, and the durable
 *   scheduler's poll cursor), and after the first poll that emits, by resource;
 * - a restart right after the baseline, before anything is emitted: what the next polls read
 *   again (the part n8n did not store), and whether one read a list from before where the stored
 *   walk stood (the baseline started over);
 * - idle polls: n8n's CPU time (its process group: main and task runner) over 60 s windows of
 *   polls that find nothing, per poll, right after that restart and again minutes later; and the
 *   same n8n with the workflow unpublished (its floor);
 * - polls that emit: one contact changed through the control API, the execution awaited, and the
 *   bytes n8n wrote meanwhile (/proc/<pid>/io: wchar, write_bytes; SQLite's file sizes; on
 *   Postgres its WAL and its processes' writes), and whether the stored generation moved.
 *
 * Goals (issue 45), checked when the seeds include `large` (and `small` for the CPU ratio): the
 * stored state at most 1 MB (2^20 bytes) on the large account, whenever n8n stored it; an
 * emitting poll writes at most 2 MB (the mean); an idle poll on the large account right after
 * the restart costs n8n at most twice its CPU on the small one; a restart right after the
 * baseline does not start it over.
 * Exits 1 when one is missed.
 *
 *   npm run bench:trigger-state                                   this checkout, small and large
 *   npm run bench:trigger-state -- --package-dir ../before        another checkout, built there
 *   npm run bench:trigger-state -- --scheduler durable --seeds large
 *   npm run bench:trigger-state -- --database postgres --seeds large   (root, or postgresql installed)
 *
 * Options: --idle-windows 3 (each time), --emits 4, --out <file.json> (the figures, for the docs'
 * tables), --logs <folder> (keep n8n's output there).
 * About 6 minutes for the small account, 10 to 20 for the large one on 2 busy cores.
 */
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../sandbox/index';
import { SandboxControl } from '../sandbox/client';
import { N8nUserFolder, type N8nWorkflow } from '../scripts/n8n-instance';
import { LOCAL_OWNER } from '../scripts/n8n-rest';
import { ensureRuntime, N8N_VERSION, type N8nRuntime } from '../scripts/n8n-runtime';
import type { N8nServer } from '../scripts/n8n-server';
import {
	buildPackage,
	packPackage,
	PACKAGE_DIR,
	type PackResult,
} from '../scripts/package-tarball';
import { freePort } from '../scripts/ports';
import { killAllOnSignals, waitFor } from '../scripts/processes';
import { sandboxCredential, SANDBOX_CREDENTIAL } from '../scripts/workflows';
import { DURABLE_SCHEDULER } from '../test/e2e/support/durable';
import { SandboxApi } from '../test/e2e/support/sandbox-api';
import { chain, NODE_TYPES } from '../test/e2e/workflows/build';
import { ensureServices, startPostgres, type RunningService } from './queue-services';
import {
	baselineEnd,
	bytesOf,
	groupUsage,
	peakMemory,
	type Poll,
	pollsIn,
	PostgresState,
	readsBack,
	SqliteState,
	type StateDatabase,
	stateParts,
	startsOver,
	storedGeneration,
	walksBegun,
	type Usage,
	usageBetween,
} from './trigger-state-probes';
import {
	type AccountFigures,
	type EmitWindow,
	goals,
	printAccount,
	type StateFigures,
	type Window,
} from './trigger-state-report';

const MINUTE = 60_000;
const TICK_MS = 10_000;
const WINDOW_MS = 60_000;
const WORKFLOW = 'IbTriggerState01';
const TRIGGER = 'Inspection Business Trigger';

const started = Date.now();
const log = (line: string) =>
	console.error(`[trigger-state +${Math.round((Date.now() - started) / 1000)}s] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function options() {
	const { values } = parseArgs({
		options: {
			'package-dir': { type: 'string', default: PACKAGE_DIR },
			seeds: { type: 'string', default: 'small,large' },
			scheduler: { type: 'string', default: 'poller' },
			database: { type: 'string', default: 'sqlite' },
			'idle-windows': { type: 'string', default: '3' },
			emits: { type: 'string', default: '4' },
			out: { type: 'string' },
			logs: { type: 'string' },
		},
	});
	if (values.scheduler !== 'poller' && values.scheduler !== 'durable')
		throw new Error('--scheduler must be poller (n8n 2.41 default) or durable (n8n 2.45 default)');
	if (values.database !== 'sqlite' && values.database !== 'postgres')
		throw new Error('--database must be sqlite or postgres');
	return {
		packageDir: path.resolve(values['package-dir']),
		seeds: values.seeds.split(',') as Array<'small' | 'large' | 'demo'>,
		scheduler: values.scheduler,
		database: values.database,
		idleWindows: Number(values['idle-windows']),
		emits: Number(values.emits),
		out: values.out,
		logs: values.logs ? logFolder(path.resolve(values.logs)) : undefined,
	};
}
type Settings = ReturnType<typeof options>;

/** The folder for n8n's output, made if missing. */
function logFolder(folder: string): string {
	mkdirSync(folder, { recursive: true });
	return folder;
}

/** Every event the checkout's trigger offers, and its default node version: read from its build. */
async function triggerShape(packageDir: string): Promise<{ events: string[]; version: number }> {
	const file = path.join(
		packageDir,
		'dist/nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node.js',
	);
	const exported = (await import(file)) as Record<string, new () => unknown>;
	const { description } = new exported.InspectionBusinessTrigger() as {
		description: {
			version: number | number[];
			defaultVersion?: number;
			properties: Array<{ name: string; options?: Array<{ value: string }> }>;
		};
	};
	const events = description.properties.find((property) => property.name === 'events')?.options;
	if (!events?.length) throw new Error(`No events in ${file}`);
	return {
		events: events.map((option) => option.value),
		version: description.defaultVersion ?? Math.max(...[description.version].flat()),
	};
}

/** Polls at seconds 0, 10, … 50 of every minute (n8n refuses an interval under a minute). */
const every10Seconds = () => ({
	item: [0, 10, 20, 30, 40, 50].map((second) => ({
		mode: 'custom',
		cronExpression: `${second} * * * * *`,
	})),
});

const triggerWorkflow = (shape: { events: string[]; version: number }): N8nWorkflow =>
	chain(WORKFLOW, 'Trigger state bench: every event', [
		{
			name: TRIGGER,
			type: NODE_TYPES.poll,
			typeVersion: shape.version,
			parameters: { pollTimes: every10Seconds(), events: shape.events, options: {} },
			credentials: { inspectionBusinessApi: SANDBOX_CREDENTIAL },
		},
	]);

/** A user folder whose every n8n command (imports, start) gets `settings` (the database's). */
class BenchUserFolder extends N8nUserFolder {
	constructor(
		runtime: N8nRuntime,
		folder: string,
		private readonly settings: Record<string, string>,
	) {
		super(runtime, folder);
	}

	override env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
		return super.env({ ...this.settings, ...extra });
	}
}

/** One account's n8n: its folder, database reader, server, sandbox, and the log of its output. */
interface Account {
	seed: string;
	settings: Settings;
	sandbox: RunningSandbox;
	control: SandboxControl;
	folder: BenchUserFolder;
	database: StateDatabase;
	server?: N8nServer;
	logFile: string;
	/** The contact the emitting polls change. */
	contactId: string;
	/** n8n's Postgres, when it runs on one: its processes' writes are n8n's database writes. */
	postgres?: RunningService;
}

async function startN8n(account: Account, first: boolean): Promise<void> {
	account.server = await account.folder.startServer(await freePort(), {
		ui: false,
		env: account.settings.scheduler === 'durable' ? { ...DURABLE_SCHEDULER } : {},
		onOutput: (chunk) => appendFileSync(account.logFile, chunk),
	});
	if (first) await account.server.rest.setupOwner(LOCAL_OWNER);
	else await account.server.rest.login(LOCAL_OWNER);
}

const n8nPid = (account: Account) => {
	const pid = account.server?.pid;
	if (pid === undefined) throw new Error('n8n is not running');
	return pid;
};
const usage = (account: Account): Usage => groupUsage(n8nPid(account));
const postgresUsage = (account: Account): Usage | undefined =>
	account.postgres ? groupUsage(account.postgres.process.pid!) : undefined;
/** What Postgres wrote between two samples (nothing on SQLite, where n8n writes itself). */
const postgresWrites = (a: Usage | undefined, b: Usage | undefined) =>
	a && b
		? { postgresWchar: b.wchar - a.wchar, postgresWriteBytes: b.writeBytes - a.writeBytes }
		: {};

/** The workflow credential's requests since `from` (ms), as polls. */
async function triggerPolls(account: Account, from = 0): Promise<Poll[]> {
	const { data } = await account.control.requests({ pathPrefix: '/v1/' });
	return pollsIn(
		data.filter((entry) => entry.key === SANDBOX_KEYS.acmeOwner && Date.parse(entry.time) >= from),
	);
}

async function finishedExecutions(account: Account): Promise<number> {
	const executions = await account.server!.rest.executions(WORKFLOW);
	return executions.filter((execution) => !['running', 'new', 'waiting'].includes(execution.status))
		.length;
}

/** Waits until the next moment `offsetMs` past a poll time (polls come at whole 10 s). */
async function untilTickPlus(offsetMs: number): Promise<void> {
	const now = Date.now();
	let next = Math.floor(now / TICK_MS) * TICK_MS + offsetMs;
	if (next <= now + 500) next += TICK_MS;
	await sleep(next - now);
}

/** Waits for the baseline to end (two idle polls in a row); its polls, and when it ended. */
async function awaitBaseline(account: Account, from: number, timeoutMs = 30 * MINUTE) {
	return await waitFor(
		'the baseline to end (two polls in a row that read only recent changes)',
		async () => {
			const polls = await triggerPolls(account, from);
			const end = baselineEnd(polls);
			return end < 0 ? undefined : { baseline: polls.slice(0, end), idleFrom: polls[end].start };
		},
		{
			timeoutMs,
			intervalMs: 2000,
			abort: () => (account.server?.running ? undefined : 'n8n exited'),
		},
	);
}

async function storedState(
	account: Account,
	stored?: Awaited<ReturnType<StateDatabase['stored']>>,
): Promise<StateFigures> {
	stored ??= await account.database.stored(WORKFLOW);
	return {
		staticDataBytes: bytesOf(stored.staticData),
		cursorBytes: bytesOf(stored.cursor),
		parts: stateParts(stored, TRIGGER),
	};
}

const generationStored = async (account: Account) =>
	storedGeneration(await account.database.stored(WORKFLOW), TRIGGER);

/** Requests per list (`/v1/contacts`: contacts), over some polls. */
function requestsByList(polls: Poll[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { path: list } of polls.flatMap((poll) => poll.requests))
		counts[list.replace('/v1/', '')] = (counts[list.replace('/v1/', '')] ?? 0) + 1;
	return counts;
}

/** The baseline from n8n's start: wall time (first to last request), polls, requests, CPU. */
async function measureBaseline(account: Account) {
	const startedAt = Date.now();
	await startN8n(account, true);
	const ready = usage(account);
	const { baseline } = await awaitBaseline(account, startedAt);
	const done = usage(account);
	const requests = baseline.reduce((sum, poll) => sum + poll.requests.length, 0);
	log(`${account.seed}: baseline done, ${baseline.length} polls, ${requests} requests`);
	// A durable poll commits its cursor a moment after it returns; a poll runs every 10 s.
	await sleep(12_000);
	return {
		wallS: (baseline[baseline.length - 1].end - baseline[0].start) / 1000,
		polls: baseline.length,
		requests,
		requestsByList: requestsByList(baseline),
		pollSpans: baseline.map((poll) => ({
			atS: Math.round((poll.start - baseline[0].start) / 1000),
			lastRequestAfterS: Math.round((poll.end - poll.start) / 1000),
			requests: poll.requests.length,
		})),
		n8nBootS: (ready.at - startedAt) / 1000,
		cpuS: (done.cpuMs - ready.cpuMs) / 1000,
		peakMemoryBytes: peakMemory(n8nPid(account)),
		stored: await storedState(account),
	};
}

/** One 60 s window of n8n's CPU and writes, from 5 s past a poll time: its polls and executions. */
async function window(account: Account): Promise<Window> {
	await untilTickPlus(5000);
	const executionsBefore = await finishedExecutions(account);
	const [a, pgA] = [usage(account), postgresUsage(account)];
	await sleep(WINDOW_MS);
	const [b, pgB] = [usage(account), postgresUsage(account)];
	const polls = (await triggerPolls(account, a.at)).filter((poll) => poll.start < b.at);
	const tasks = (await account.database.pollTaskStarts()).filter((t) => t >= a.at && t < b.at);
	return {
		...usageBetween(a, b),
		...postgresWrites(pgA, pgB),
		polls: polls.length,
		pollsReadingBack: polls.filter(readsBack).length,
		tasksStarted: tasks.length,
		emitted: (await finishedExecutions(account)) !== executionsBefore,
	};
}

/** `count` windows of idle polls (a window in which something was emitted is not counted). */
async function idleWindows(account: Account, count: number): Promise<Window[]> {
	const windows: Window[] = [];
	for (let attempt = 0; windows.length < count && attempt < count + 3; attempt++) {
		const measured = await window(account);
		log(
			`${account.seed}: idle window ${JSON.stringify({ ...measured, cpuMs: Math.round(measured.cpuMs) })}`,
		);
		if (!measured.emitted && measured.pollsReadingBack === 0) windows.push(measured);
	}
	return windows;
}

/** Waits for two polls in a row since `from` that read only recent changes; the polls before them. */
async function untilIdle(account: Account, from: number, timeoutMs = 30 * MINUTE): Promise<Poll[]> {
	return await waitFor(
		'two polls in a row that read only recent changes',
		async () => {
			const polls = await triggerPolls(account, from);
			const pair = polls.findIndex(
				(poll, i) => !readsBack(poll) && polls[i + 1] && !readsBack(polls[i + 1]),
			);
			return pair < 0 ? undefined : polls.slice(0, pair);
		},
		{
			timeoutMs,
			intervalMs: 2000,
			abort: () => (account.server?.running ? undefined : 'n8n exited'),
		},
	);
}

/** Stops n8n right after the baseline (nothing changed since) and starts it again: does it start over? */
async function measureRestart(account: Account) {
	const stored = await account.database.stored(WORKFLOW);
	const storedBefore = await storedState(account, stored);
	const begun = walksBegun(stored, TRIGGER);
	await account.server!.stop();
	const restartedAt = Date.now();
	await startN8n(account, false);
	const rereading = (await untilIdle(account, restartedAt)).filter(readsBack);
	const fromStart = startsOver(rereading, begun);
	const listsSeen = new Set<string>();
	const firstRequests = rereading
		.flatMap((poll) => poll.requests)
		.filter(({ path: list }) => !listsSeen.has(list) && listsSeen.add(list));
	return {
		storedBefore,
		walksBegun: [...begun.keys()],
		firstRequests: firstRequests.map(({ path: list, query }) => ({ list, query })),
		startedOver: fromStart,
		pollsReadingBack: rereading.length,
		requests: rereading.reduce((sum, poll) => sum + poll.requests.length, 0),
		requestsByList: requestsByList(rereading),
		wallS: rereading.length ? (rereading[rereading.length - 1].end - rereading[0].start) / 1000 : 0,
	};
}

/**
 * Emitting polls: from 4 s past a poll time, one contact changed, its execution awaited, then up
 * to 5 s past the next poll time; what n8n (and its Postgres) wrote over that window.
 */
async function measureEmits(account: Account, count: number) {
	const emits: EmitWindow[] = [];
	let storedAfterFirst: StateFigures | undefined;
	for (let i = 1; i <= count; i++) {
		await untilTickPlus(4000);
		const executions = await finishedExecutions(account);
		const [a, pgA, markA] = [
			usage(account),
			postgresUsage(account),
			await account.database.writeMark(),
		];
		const generationBefore = await generationStored(account);
		await account.control.updateContact(account.contactId, { notes: `trigger-state bench ${i}` });
		await waitFor(
			'the change to be emitted',
			async () => ((await finishedExecutions(account)) > executions ? true : undefined),
			{ timeoutMs: 3 * MINUTE, intervalMs: 500 },
		);
		await untilTickPlus(5000);
		const [b, pgB, markB] = [
			usage(account),
			postgresUsage(account),
			await account.database.writeMark(),
		];
		const polls = (await triggerPolls(account, a.at)).filter((poll) => poll.start < b.at);
		emits.push({
			...usageBetween(a, b),
			...postgresWrites(pgA, pgB),
			polls: polls.length,
			databaseGrowth: markB - markA,
			generations: [generationBefore, await generationStored(account)],
		});
		log(`${account.seed}: emit ${i} ${JSON.stringify(emits[emits.length - 1])}`);
		if (i === 1) storedAfterFirst = await storedState(account);
	}
	return { emits, storedAfterFirst: storedAfterFirst! };
}

/** The same n8n with the workflow unpublished: its CPU per 10 s, for what polls add to it. */
async function measureFloor(account: Account): Promise<Window> {
	await account.server!.rest.unpublish(WORKFLOW);
	await sleep(5000);
	return await window(account);
}

/** What every account of a run shares: the n8n runtime, the packed package, the workflow. */
interface RunContext {
	settings: Settings;
	runtime: N8nRuntime;
	packed: PackResult;
	workflow: N8nWorkflow;
	workDir: string;
}

const postgresSettings = (port: number): Record<string, string> => ({
	DB_TYPE: 'postgresdb',
	DB_POSTGRESDB_HOST: '127.0.0.1',
	DB_POSTGRESDB_PORT: String(port),
	DB_POSTGRESDB_DATABASE: 'n8n',
	DB_POSTGRESDB_USER: 'postgres',
	DB_POSTGRESDB_PASSWORD: '',
});

/** The sandbox with `seed`, and a user folder with the package, the credential and the workflow published. */
async function prepareAccount(
	seed: string,
	run: RunContext,
	postgres?: RunningService,
): Promise<Account> {
	const sandbox = await startSandbox({ port: 0, seed, rateLimit: 120 });
	const api = new SandboxApi(sandbox.baseUrl);
	const [contact] = (await api.get<{ data: Array<{ id: string }> }>('/v1/contacts', { limit: 1 }))
		.data;
	const folder = new BenchUserFolder(
		run.runtime,
		path.join(run.workDir, seed),
		postgres ? postgresSettings(postgres.port) : {},
	);
	await folder.installPackage(run.packed.tarball, run.packed.name, run.packed.version);
	await folder.importCredentials([sandboxCredential(sandbox.baseUrl)]);
	await folder.importWorkflows([run.workflow]);
	let database: StateDatabase;
	if (postgres) {
		const state = new PostgresState(postgres.port, 'n8n');
		await state.publish(WORKFLOW);
		database = state;
	} else {
		await folder.publishWorkflows([WORKFLOW]);
		database = new SqliteState(run.runtime, folder.folder);
	}
	return {
		seed,
		settings: run.settings,
		sandbox,
		control: new SandboxControl(sandbox.baseUrl),
		folder,
		database,
		logFile: path.join(run.settings.logs ?? run.workDir, `n8n-${seed}.log`),
		contactId: contact.id,
		postgres,
	};
}

async function measureAccount(account: Account): Promise<AccountFigures> {
	const load = loadavg()[0];
	log(
		`${account.seed}: starting n8n (${account.settings.scheduler}, ${account.settings.database})`,
	);
	const baseline = await measureBaseline(account);
	// Before anything is emitted: n8n holds what it stored of the baseline, perhaps not its end.
	log(`${account.seed}: restarting n8n right after the baseline`);
	const restart = await measureRestart(account);
	const idle = await idleWindows(account, account.settings.idleWindows);
	const emitted = await measureEmits(account, account.settings.emits);
	const idleLater = await idleWindows(account, account.settings.idleWindows);
	const floor = await measureFloor(account);
	return {
		seed: account.seed,
		loadAverage: [load, loadavg()[0]],
		baseline,
		idle,
		idleLater,
		restart,
		...emitted,
		floor,
	};
}

/** One account, start to end: everything it started is stopped, whatever failed. */
async function runAccount(seed: string, run: RunContext, pgDir: string): Promise<AccountFigures> {
	let postgres: RunningService | undefined;
	if (run.settings.database === 'postgres') {
		await ensureServices(log);
		postgres = await startPostgres(path.join(pgDir, seed), 'n8n');
	}
	let account: Account | undefined;
	try {
		account = await prepareAccount(seed, run, postgres);
		return await measureAccount(account);
	} finally {
		await account?.server?.stop();
		await account?.sandbox.stop();
		await postgres?.process.stop();
	}
}

async function main(): Promise<void> {
	const settings = options();
	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-trigger-state-'));
	// Outside workDir, and open to pass through: the postgres user owns a folder per account in it.
	const pgDir = mkdtempSync(path.join(tmpdir(), 'ib-trigger-state-pg-'));
	chmodSync(pgDir, 0o711);
	const removeFolders = () => {
		for (const dir of [workDir, pgDir]) rmSync(dir, { recursive: true, force: true });
	};
	killAllOnSignals(removeFolders);
	const runtime = await ensureRuntime(log);
	log(`Building and packing ${settings.packageDir}`);
	await buildPackage(settings.packageDir);
	const packed = await packPackage(workDir, settings.packageDir);
	const shape = await triggerShape(settings.packageDir);
	log(
		`${packed.name}@${packed.version}: trigger version ${shape.version}, ${shape.events.length} events`,
	);
	const run: RunContext = { settings, runtime, packed, workflow: triggerWorkflow(shape), workDir };
	const context = { ...settings, n8n: N8N_VERSION, events: shape.events, version: shape.version };
	const results: AccountFigures[] = [];
	try {
		for (const seed of settings.seeds) {
			results.push(await runAccount(seed, run, pgDir));
			printAccount(results[results.length - 1], settings);
			if (settings.out) writeFileSync(settings.out, JSON.stringify({ context, results }, null, 2));
		}
	} finally {
		removeFolders();
	}
	if (!goals(results)) process.exitCode = 1;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
