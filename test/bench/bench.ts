/**
 * `npm run bench`: request counts and wall times against an in-process sandbox
 * with the `large` seed (50,000 contacts) and a rate limit far above what the
 * runs need, so pacing never waits. Each scenario runs through the real node
 * (the InspectionBusiness node in n8n-core's WorkflowExecute, via the test
 * harness) and through the transport alone, and is counted in the sandbox
 * request log next to the floor ⌈N/200⌉.
 *
 * Return All selects N ≈ 10,000 contacts with updated_since set to the
 * updated_at of the 10,000th most recently changed contact (ties can add a
 * few; N is printed as the server's `total`).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { InspectionBusiness } from '../../nodes/InspectionBusiness/InspectionBusiness.node';
import { getByIds, paginate } from '../../nodes/shared/transport';
import { SANDBOX_KEYS, startSandbox } from '../../sandbox';
import { SandboxControl } from '../../sandbox/client';
import { runNode, withExecuteContext } from '../helpers/n8n';
import { upsertBench } from './upsert';

const RATE = 1_000_000;
const PAGE = 200;

interface Row {
	scenario: string;
	path: 'node' | 'transport';
	records: number;
	requests: number;
	floor: number;
	wallMs: number;
}

async function main() {
	const sandbox = await startSandbox({ seed: 'large', rateLimit: RATE, port: 0 });
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
			floorOf: number,
			run: () => Promise<number>,
		) => {
			await control.clearRequests();
			const started = performance.now();
			const records = await run();
			const wallMs = Math.round(performance.now() - started);
			const requests = (await control.requests({ method: 'GET', pathPrefix: '/v1/' })).count;
			rows.push({ scenario, path, records, requests, floor: Math.ceil(floorOf / PAGE), wallMs });
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
			n,
			async () =>
				await viaNode({
					resource: 'contact',
					operation: 'getAll',
					returnAll: true,
					filters: { updated_since: since },
				}),
		);
		await measure(returnAll, 'transport', n, countSince);
		await measure(
			'Limit 250',
			'node',
			250,
			async () =>
				await viaNode({ resource: 'contact', operation: 'getAll', returnAll: false, limit: 250 }),
		);
		await measure(
			'Limit 250',
			'transport',
			250,
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
			ids.length,
			async () =>
				await viaNode({ resource: 'contact', operation: 'get', id: '={{ $json.id }}' }, items),
		);
		await measure(
			'Get, M=1,000 ids',
			'transport',
			ids.length,
			async () =>
				await inTransport(async function () {
					return (await getByIds.call(this, 'listContacts', ids)).size;
				}),
		);

		const header = ['Scenario', 'Path', 'Records', 'Requests', 'Floor ⌈N/200⌉', 'Wall ms'];
		const lines = rows.map((r) => [
			r.scenario,
			r.path,
			String(r.records),
			String(r.requests),
			String(r.floor),
			String(r.wallMs),
		]);
		const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
		const format = (cells: string[]) =>
			`| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
		console.log(
			`Sandbox: seed large (50,000 acme contacts), rate limit ${RATE.toLocaleString('en-US')}/min, Node ${process.version}`,
		);
		console.log(format(header));
		console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
		for (const line of lines) console.log(format(line));
		const failed = rows.filter((r) => r.requests !== r.floor);
		if (failed.length > 0) {
			console.log(
				`\nAbove the floor: ${failed.map((r) => `${r.scenario} (${r.path})`).join(', ')}`,
			);
			process.exitCode = 1;
		}
	} finally {
		await sandbox.stop();
	}
	await upsertBench();
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
