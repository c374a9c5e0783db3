/**
 * Part of `npm run bench`: Contact Create or Update, 1,000 items against an
 * account of 5,000 contacts (the demo seed topped up through the sandbox
 * control API). Half the items' emails exist (in upper case, matched
 * case-insensitively), half are new. Both matching strategies are measured
 * through the helper the node uses, then the node itself runs, and the sandbox
 * request log counts every request. The node must read no more than the count
 * plus the cheaper strategy.
 */
import type { IDataObject } from 'n8n-workflow';

// '.node.js', not '.node': under tsx a bare '.node' resolves to the codex file InspectionBusiness.node.json.
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node.js';
import {
	lookUpEmails,
	matchEmails,
	walkEmails,
} from '../nodes/InspectionBusiness/helpers/emailMatch';
import { paginate } from '../nodes/shared/transport/pages';
import { SANDBOX_KEYS, startSandbox } from '../sandbox';
import { SandboxControl } from '../sandbox/client';
import { runNode, withExecuteContext } from '../test/helpers/n8n';

const RATE = 1_000_000;
const CONTACTS = 5_000;
const ITEMS = 1_000;
/** The API's budget, to turn request counts into minutes. */
const PER_MINUTE = 120;

interface Row {
	run: string;
	reads: number;
	writes: number;
	wallMs: number;
}

export async function upsertBench(): Promise<void> {
	const sandbox = await startSandbox({ seed: 'demo', rateLimit: RATE, port: 0 });
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
		// Setup (not measured): top the account up to 5,000 contacts, and the items' emails.
		const contacts = await inTransport(async function () {
			const records: IDataObject[] = [];
			for await (const page of paginate.call(this, 'listContacts', {})) records.push(...page);
			return records;
		});
		for (let n = contacts.length; n < CONTACTS; n++) {
			await control.createContact('acme', {
				first_name: `Bench ${n}`,
				email: `bench.${n}@example.com`,
			});
		}
		const existing = contacts.slice(0, ITEMS / 2).map((c) => String(c.email).toUpperCase());
		const fresh = Array.from({ length: ITEMS / 2 }, (_, n) => `upsert.${n}@example.com`);
		const emails = [...existing, ...fresh];

		const rows: Row[] = [];
		const measure = async (run: string, body: () => Promise<unknown>) => {
			await control.clearRequests();
			const started = performance.now();
			await body();
			const wallMs = Math.round(performance.now() - started);
			const log = (await control.requests({ pathPrefix: '/v1/' })).data;
			const reads = log.filter((entry) => entry.method === 'GET').length;
			rows.push({ run, reads, writes: log.length - reads, wallMs });
		};
		let picked = '';
		await measure(
			'Lookups: 1 per unique email',
			async () =>
				await inTransport(async function () {
					return await lookUpEmails.call(this, emails);
				}),
		);
		await measure(
			'Walk: ⌈N/200⌉ pages',
			async () =>
				await inTransport(async function () {
					return await walkEmails.call(this, emails);
				}),
		);
		await measure('Plan: count, then the cheaper', async () => {
			const { plan } = await inTransport(async function () {
				return await matchEmails.call(this, emails);
			});
			picked = plan.strategy;
		});
		const node = new InspectionBusiness();
		await measure('Node: Create or Update, 1,000 items', async () => {
			const { error, items } = await runNode({
				node,
				credentials,
				parameters: {
					resource: 'contact',
					operation: 'upsert',
					email: '={{ $json.email }}',
					first_name: 'Bench',
				},
				items: emails.map((email) => ({ json: { email } })),
			});
			if (error) throw error;
			const actions = items.map((item) => item.json.action);
			if (actions.filter((a) => a === 'created').length !== ITEMS / 2)
				throw new Error('Create or Update bench: expected 500 contacts created');
		});

		const header = ['Create or Update run', 'Reads', 'Writes', `Minutes at ${PER_MINUTE}/min`];
		const lines = rows.map((r) => [
			r.run,
			String(r.reads),
			String(r.writes),
			((r.reads + r.writes) / PER_MINUTE).toFixed(1),
		]);
		const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
		const format = (cells: string[]) =>
			`| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
		console.log(
			`\nCreate or Update: ${ITEMS.toLocaleString('en-US')} items (500 existing emails, 500 new) against ${CONTACTS.toLocaleString('en-US')} contacts; picked: ${picked}`,
		);
		console.log(format(header));
		console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
		for (const line of lines) console.log(format(line));

		const [lookups, walk, , viaNode] = rows;
		const cheapest = 1 + Math.min(lookups.reads, walk.reads);
		if (viaNode.reads > cheapest || viaNode.writes !== ITEMS) {
			console.log(
				`\nCreate or Update above its plan: ${viaNode.reads} reads (at most ${cheapest}), ${viaNode.writes} writes (${ITEMS})`,
			);
			process.exitCode = 1;
		}
	} finally {
		await sandbox.stop();
	}
}
