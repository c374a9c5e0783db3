/**
 * `npm run sandbox` (tsx sandbox/cli.ts): flags, printed base URL and keys, clean stop; and its
 * commands against a running sandbox: the help lists the changes table, a change prints the
 * record as it is now and the trigger events to expect, a change it cannot make says why.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sleep } from 'n8n-workflow';
import { CHANGES, TRIGGER_EVENT_LABELS } from '../../sandbox/changes';
import { withSandbox } from '../helpers/n8n';
import { SANDBOX_KEYS } from './support';

const ROOT = join(__dirname, '..', '..');
/** Each test starts tsx: seconds alone, much longer beside a busy process. */
const SPAWNS_MS = 120_000;
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

function run(args: string[]) {
	const child = spawn(TSX, ['sandbox/cli.ts', ...args], { cwd: ROOT });
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	/** What it printed, once `pattern` shows (or 60 s passed: tsx starts slowly beside a busy process). */
	const printed = async (pattern: RegExp) => {
		for (let i = 0; i < 1200 && !pattern.test(out); i++) await sleep(50);
		return out;
	};
	return { child, exited, printed };
}

it(
	'starts in the foreground with the given flags, prints its URL and the keys, and stops on SIGTERM',
	async () => {
		const cli = run([
			'--port',
			'0',
			'--rate-limit',
			'7',
			'--latency-ms',
			'1',
			'--faults',
			'503=0',
			'--seed',
			'demo',
		]);
		const out = await cli.printed(new RegExp(SANDBOX_KEYS.revoked));
		const baseUrl = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
		expect(baseUrl).toBeDefined();
		for (const key of Object.values(SANDBOX_KEYS)) expect(out).toContain(key);
		const info = (await (await fetch(`${baseUrl}/_sandbox/info`)).json()) as {
			rate_limit: number;
			seed: string;
			settings: { latency_ms: number };
		};
		expect(info).toMatchObject({ rate_limit: 7, seed: 'demo', settings: { latency_ms: 1 } });
		const res = await fetch(`${baseUrl}/v1/tags?limit=1`, {
			headers: { Authorization: `Bearer ${SANDBOX_KEYS.acmeOwner}` },
		});
		expect(res.status).toBe(200);
		cli.child.kill('SIGTERM');
		expect(await cli.exited).toBe(0);
	},
	SPAWNS_MS,
);

it(
	'refuses a bad flag value with the usage and exit code 1',
	async () => {
		const cli = run(['--faults', 'teapot=1']);
		expect(await cli.exited).toBe(1);
		expect(await cli.printed(/Usage/)).toMatch(/teapot[\s\S]*Usage: npm run sandbox/);
	},
	SPAWNS_MS,
);

describe('commands against a running sandbox', () => {
	const sandbox = withSandbox({}, { reset: true });
	const command = async (...args: string[]) => {
		const cli = run([...args, '--url', sandbox.baseUrl]);
		const code = await cli.exited;
		return { code, out: await cli.printed(/$/) };
	};

	it(
		'--help lists every change of the table, with the trigger events it makes',
		async () => {
			const cli = run(['--help']);
			expect(await cli.exited).toBe(0);
			const out = await cli.printed(/reset/);
			for (const [name, change] of Object.entries(CHANGES)) {
				expect(out).toContain(`  ${name} `);
				for (const expected of change.events)
					expect(out).toContain(
						TRIGGER_EVENT_LABELS[typeof expected === 'string' ? expected : expected[0]],
					);
			}
		},
		SPAWNS_MS,
	);

	it(
		'pay-part, then pay: each prints the inspection as it is now and the trigger events to expect',
		async () => {
			const part = await command('pay-part');
			expect(part.code).toBe(0);
			const id = /inspection ([0-9a-f-]{36})/.exec(part.out)?.[1];
			expect(id).toBeDefined();
			expect(part.out).toMatch(new RegExp(`Inspection +${id} \\(confirmed\\)`));
			expect(part.out).toMatch(/Price +quote \d+, paid \d+(\.\d+)?, due \d+(\.\d+)? \(partial\)/);
			expect(part.out).toContain('Inspection Updated (inspection.updated)');
			expect(part.out).not.toContain('Inspection Paid');

			const rest = await command('pay');
			expect(rest.code).toBe(0);
			expect(rest.out).toMatch(new RegExp(`Inspection +${id} \\(confirmed\\)`));
			expect(rest.out).toMatch(/due 0 \(fully paid\)/);
			expect(rest.out).toMatch(/^ {2}Inspection Paid \(inspection.paid\)/m);
			expect(rest.out).toContain('The account sends no webhook for this change.');
		},
		SPAWNS_MS,
	);

	it(
		'confirm --id <inspection> acts on that inspection and says which webhook goes out',
		async () => {
			const created = await sandbox.control.createInspection({ org: 'acme', status: 'waiting' });
			const { code, out } = await command('confirm', '--id', String(created.id));
			expect(code).toBe(0);
			expect(out).toContain(`Confirmed inspection ${String(created.id)}`);
			expect(out).toContain('Inspection Confirmed (inspection.confirmed)');
			expect(out).toContain('sends the webhook inspection.confirmed now');
		},
		SPAWNS_MS,
	);

	it(
		'a change it cannot make exits 1 with the reason alone, not the usage',
		async () => {
			const { code, out } = await command('pay-now');
			expect(code).toBe(1);
			expect(out.trim()).toBe('Unknown change "pay-now"; npm run sandbox -- --help lists them');
		},
		SPAWNS_MS,
	);
});
