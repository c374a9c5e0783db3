/**
 * `npm run bench:contention`: several n8n processes under one API key against
 * the sandbox at its real limit (120 requests per minute per key owner), each
 * running the node's Contact Get Many with Return All over the same N ≈ 12,500
 * contacts (seed `large`, updated_since set at the 12,500th most recent change).
 * No process can see the others; only the server's answers tell them apart.
 *
 * Reports per run: errors surfaced to the workflow (goal 0), records lost or
 * duplicated per worker (goal 0), the share of requests answered 429 (goal
 * ≤ 5 %) and the wall time against the floor (goal ≤ 1.1×). The floor is when
 * the server can first admit the last request: with T requests in all and a
 * sliding window of L per minute, request k waits until ⌊(k−1)/L⌋ minutes.
 *
 * Options (environment): BENCH_WORKERS (4), BENCH_RECORDS (12500), BENCH_RATE
 * (120, both the server's limit and each credential's setting).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { LIMITS } from '../nodes/shared/endpoints';
import { SANDBOX_KEYS, startSandbox } from '../sandbox';
import { SandboxControl } from '../sandbox/client';

const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 12_500);
const RATE = Number(process.env.BENCH_RATE ?? LIMITS.ratePerMinute);
const KEY = SANDBOX_KEYS.acmeOwner;
/** A worker still running after this long is stopped and counted as failed. */
const WORKER_TIMEOUT_MS = 20 * 60_000;

interface WorkerResult {
	wallMs?: number;
	cpuMs?: number;
	error?: string;
	ids: string[];
}

/** A list walked directly (setup, before the limit is set): `count` records at most. */
async function walk(
	baseUrl: string,
	query: Record<string, string>,
	count = Number.POSITIVE_INFINITY,
): Promise<Array<{ id: string; updated_at: string }>> {
	const records: Array<{ id: string; updated_at: string }> = [];
	let cursor: string | null = null;
	do {
		const url = new URL(`${baseUrl}/v1/contacts`);
		for (const [name, value] of Object.entries({ ...query, limit: '200' }))
			url.searchParams.set(name, value);
		if (cursor) url.searchParams.set('cursor', cursor);
		const response = await fetch(url, { headers: { Authorization: `Bearer ${KEY}` } });
		const page = (await response.json()) as {
			data: Array<{ id: string; updated_at: string }>;
			next_cursor: string | null;
		};
		records.push(...page.data);
		cursor = records.length < count ? page.next_cursor : null;
	} while (cursor);
	return records.slice(0, count);
}

interface Worker {
	ready: Promise<void>;
	done: Promise<WorkerResult>;
	go(): void;
}

function startWorker(env: Record<string, string>): Worker {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', join(__dirname, 'contention-worker.ts')],
		{ env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] },
	);
	const lines = createInterface({ input: child.stdout });
	let markReady: () => void = () => {};
	const ready = new Promise<void>((resolve) => (markReady = resolve));
	const done = new Promise<WorkerResult>((resolve) => {
		const timer = setTimeout(() => child.kill(), WORKER_TIMEOUT_MS);
		let result: WorkerResult = { error: 'the worker ended without a result', ids: [] };
		lines.on('line', (line) => {
			if (line === 'ready') markReady();
			else if (line.startsWith('{')) result = JSON.parse(line) as WorkerResult;
		});
		child.on('exit', () => {
			clearTimeout(timer);
			markReady();
			resolve(result);
		});
	});
	return { ready, done, go: () => child.stdin.end('go\n') };
}

async function main() {
	const sandbox = await startSandbox({ seed: 'large', rateLimit: 1_000_000, port: 0 });
	const control = new SandboxControl(sandbox.baseUrl);
	try {
		const recent = await walk(sandbox.baseUrl, { sort: '-updated_at' }, RECORDS);
		const since = recent[recent.length - 1].updated_at;
		const expectedIds = new Set(
			(await walk(sandbox.baseUrl, { updated_since: since })).map((record) => record.id),
		);
		const workers = Array.from({ length: WORKERS }, () =>
			startWorker({
				BENCH_BASE_URL: sandbox.baseUrl,
				BENCH_KEY: KEY,
				BENCH_SINCE: since,
				BENCH_RATE: String(RATE),
			}),
		);
		await Promise.all(workers.map(async (worker) => await worker.ready));
		// The real limit from here on, with an empty window.
		await control.setRateLimit(RATE);
		await control.clearRequests();
		const started = performance.now();
		for (const worker of workers) worker.go();
		const results = await Promise.all(workers.map(async (worker) => await worker.done));
		const wallMs = performance.now() - started;

		const log = (await control.requests({ pathPrefix: '/v1/' })).data;
		const answered = log.filter((entry) => entry.status === 200);
		const limited = log.filter((entry) => entry.status === 429).length;
		const pagesPerWalk = Math.ceil(expectedIds.size / LIMITS.pageSizeMax);
		const floorMs = Math.floor((WORKERS * pagesPerWalk - 1) / RATE) * 60_000;
		const rows = results.map((result, index) => {
			const unique = new Set(result.ids);
			return {
				worker: index + 1,
				records: result.ids.length,
				duplicated: result.ids.length - unique.size,
				lost: [...expectedIds].filter((id) => !unique.has(id)).length,
				wall_s: result.wallMs === undefined ? '-' : (result.wallMs / 1000).toFixed(1),
				cpu_ms: result.cpuMs ?? '-',
				error: result.error ?? '',
			};
		});
		console.log(
			`Contention bench: ${WORKERS} processes under one key, sandbox limit ${RATE}/min, seed large, Node ${process.version}`,
		);
		console.table(rows);
		const errors = rows.filter((row) => row.error !== '').length;
		const summary = {
			records_per_walk: expectedIds.size,
			requests: log.length,
			answered_200: answered.length,
			answered_429: limited,
			share_429: `${((100 * limited) / Math.max(1, log.length)).toFixed(1)} %`,
			surfaced_errors: errors,
			lost_or_duplicated: rows.reduce((sum, row) => sum + row.lost + row.duplicated, 0),
			wall_s: (wallMs / 1000).toFixed(1),
			floor_s: (floorMs / 1000).toFixed(1),
			wall_over_floor: floorMs > 0 ? (wallMs / floorMs).toFixed(2) : '-',
		};
		console.log(JSON.stringify(summary, null, 2));
	} finally {
		await sandbox.stop();
	}
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
