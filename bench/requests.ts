/**
 * `npm run bench`: request counts, wall times and CPU against a sandbox in its
 * own process (so the CPU measured here is the node's and n8n's, not the
 * server's) with the `large` seed (50,000 contacts) and a rate limit far above
 * what the runs need, so pacing never waits. Each scenario runs through the
 * real node (the InspectionBusiness node in n8n-core's WorkflowExecute, via the
 * test harness) and through the transport alone, and is counted in the sandbox
 * request log next to its floor: ⌈N/200⌉, or for a Limit on short pages the
 * pages Return All needs to reach that record.
 *
 * Return All selects N ≈ 10,000 contacts with updated_since set to the
 * updated_at of the 10,000th most recently changed contact (ties can add a
 * few). CPU is this process's user+system time during the run; "% of floor"
 * compares the CPU per 10,000 records with the network floor for them at the
 * real limit (50 requests at 120 a minute = 25 s).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

// '.node.js', not '.node': under tsx a bare '.node' resolves to the codex file InspectionBusiness.node.json.
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node.js';
import { getByIds, paginate } from '../nodes/shared/transport/pages';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { SANDBOX_KEYS } from '../sandbox';
import { SandboxControl } from '../sandbox/client';
import { runNode, withExecuteContext } from '../test/helpers/n8n';
import { upsertBench } from './upsert';

const RATE = 1_000_000;
const PAGE = 200;
/** The network floor of 10,000 records at the real limit: 50 requests at 120 a minute. */
const FLOOR_MS_PER_10K = (10_000 / PAGE / 120) * 60_000;

/** The sandbox in a child process; resolves with its base URL once it listens. */
async function startSandboxProcess(): Promise<{ baseUrl: string; stop: () => void }> {
	const child = spawn(
		process.execPath,
		[
			'--import',
			'tsx',
			join(__dirname, '../sandbox/cli.ts'),
			'--seed',
			'large',
			'--rate-limit',
			String(RATE),
			'--port',
			'0',
		],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const lines = createInterface({ input: child.stdout });
	const baseUrl = await new Promise<string>((resolve, reject) => {
		child.once('exit', () => reject(new Error('The sandbox process ended before it listened')));
		lines.on('line', (line) => {
			const url = /sandbox at (http:\/\/\S+)/.exec(line)?.[1];
			if (url) resolve(url);
		});
	});
	return { baseUrl, stop: () => child.kill() };
}

interface Row {
	scenario: string;
	path: 'node' | 'transport';
	records: number;
	requests: number;
	floor: number;
	wallMs: number;
	cpuMs: number;
}

async function main() {
	const sandbox = await startSandboxProcess();
	const control = new SandboxControl(sandbox.baseUrl);
	const credentials = {
		apiKey: SANDBOX_KEYS.acmeOwner,
		baseUrl: sandbox.baseUrl,
		requestsPerMinute: RATE,
	};
	const inTransport = async <T>(fn: Parameters<typeof withExecuteContext<T>>[0]): Promise<T> => {
		const { value, error } = await withExecuteContext(fn, { credentials });
		if (error) throw error;
		return value as T;
	};
	try {
		// Setup (not measured): the 10,000th most recent change, and 1,000 contact ids.
		const recent = await inTransport(async function () {
			const records: IDataObject[] = [];
			for await (const page of paginate.call(this, 'listContacts', {
				query: { sort: '-updated_at' },
				max: 10_000,
			})) {
				records.push(...page);
			}
			return records;
		});
		const since = String(recent[recent.length - 1].updated_at);
		const ids = recent.slice(0, 1_000).map((record) => String(record.id));

		const rows: Row[] = [];
		const measure = async (
			scenario: string,
			path: Row['path'],
			floor: number,
			run: () => Promise<number>,
		) => {
			await control.clearRequests();
			const cpuBefore = process.cpuUsage();
			const started = performance.now();
			const records = await run();
			const wallMs = Math.round(performance.now() - started);
			const cpu = process.cpuUsage(cpuBefore);
			const requests = (await control.requests({ method: 'GET', pathPrefix: '/v1/' })).count;
			const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
			rows.push({ scenario, path, records, requests, floor, wallMs, cpuMs });
		};
		const node = new InspectionBusiness();
		const viaNode = async (parameters: INodeParameters, items?: Array<{ json: IDataObject }>) => {
			const { items: out, error } = await runNode({ node, parameters, credentials, items });
			if (error) throw error;
			return out.length;
		};

		const countSince = async () =>
			await inTransport(async function () {
				let count = 0;
				for await (const page of paginate.call(this, 'listContacts', {
					query: { updated_since: since },
				}))
					count += page.length;
				return count;
			});
		const n = await countSince();
		const returnAll = `Return All, N=${n.toLocaleString('en-US')}`;
		await measure(
			returnAll,
			'node',
			Math.ceil(n / PAGE),
			async () =>
				await viaNode({
					resource: 'contact',
					operation: 'getAll',
					returnAll: true,
					filters: { updated_since: since },
				}),
		);
		await measure(returnAll, 'transport', Math.ceil(n / PAGE), countSince);
		await measure(
			'Limit 250',
			'node',
			2,
			async () =>
				await viaNode({ resource: 'contact', operation: 'getAll', returnAll: false, limit: 250 }),
		);
		await measure(
			'Limit 250',
			'transport',
			2,
			async () =>
				await inTransport(async function () {
					let count = 0;
					for await (const page of paginate.call(this, 'listContacts', { max: 250 }))
						count += page.length;
					return count;
				}),
		);
		const items = ids.map((id) => ({ json: { id } }));
		await measure(
			'Get, M=1,000 items',
			'node',
			Math.ceil(ids.length / PAGE),
			async () =>
				await viaNode({ resource: 'contact', operation: 'get', id: '={{ $json.id }}' }, items),
		);
		await measure(
			'Get, M=1,000 ids',
			'transport',
			Math.ceil(ids.length / PAGE),
			async () =>
				await inTransport(async function () {
					return (await getByIds.call(this, 'listContacts', ids)).size;
				}),
		);

		// Short pages (every page with a successor comes back half full): a Limit costs no more
		// requests than Return All needs to reach that record.
		await control.settings({ short_pages: 'always' });
		for (const limit of [250, 437]) {
			const pagesToReach = await inTransport(async function () {
				let reached = 0;
				let pages = 0;
				for await (const page of paginate.call(this, 'listContacts', {})) {
					pages++;
					reached += page.length;
					if (reached >= limit) break;
				}
				return pages;
			});
			await measure(
				`Limit ${limit}, short pages`,
				'node',
				pagesToReach,
				async () =>
					await viaNode({ resource: 'contact', operation: 'getAll', returnAll: false, limit }),
			);
		}
		await control.settings({ short_pages: 'tail' });

		const header = [
			'Scenario',
			'Path',
			'Records',
			'Requests',
			'Floor',
			'Wall ms',
			'CPU ms',
			'CPU ms / 10k records',
			'% of floor',
		];
		const lines = rows.map((r) => {
			const per10k = (r.cpuMs * 10_000) / Math.max(1, r.records);
			return [
				r.scenario,
				r.path,
				String(r.records),
				String(r.requests),
				String(r.floor),
				String(r.wallMs),
				String(r.cpuMs),
				String(Math.round(per10k)),
				`${((100 * per10k) / FLOOR_MS_PER_10K).toFixed(2)} %`,
			];
		});
		const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
		const format = (cells: string[]) =>
			`| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
		console.log(
			`Sandbox (own process): seed large (50,000 acme contacts), rate limit ${RATE.toLocaleString('en-US')}/min, Node ${process.version}`,
		);
		console.log(format(header));
		console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
		for (const line of lines) console.log(format(line));
		const failed = rows.filter((r) => r.requests > r.floor);
		if (failed.length > 0) {
			console.log(
				`\nAbove the floor: ${failed.map((r) => `${r.scenario} (${r.path})`).join(', ')}`,
			);
			process.exitCode = 1;
		}
	} finally {
		sandbox.stop();
	}
	await upsertBench();
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
