/**
 * `npm run sandbox` (tsx sandbox/cli.ts): as a process, flags, printed base URL and keys, clean
 * stop on SIGTERM. The rest in this process (`runCli`): a bad flag and a change it cannot make
 * exit 1, the help lists the changes table, and a change against a running sandbox prints the
 * record as it is now and the trigger events to expect.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sleep } from 'n8n-workflow';
import { CHANGES, TRIGGER_EVENT_LABELS } from '../../sandbox/changes';
import { runCli } from '../../sandbox/cli';
import { USAGE } from '../../sandbox/commands';
import { withSandbox } from '../helpers/sandbox';
import { SANDBOX_KEYS } from './support';

export function cli(): void {
	const ROOT = join(__dirname, '..', '..');
	/** The test that starts tsx: seconds alone, much longer beside a busy process. */
	const SPAWNS_MS = 120_000;
	const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

	function run(args: string[]) {
		const child = spawn(TSX, ['sandbox/cli.ts', ...args], { cwd: ROOT });
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
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

	/** Runs the CLI in this process: its exit code and what it printed (errors included). */
	async function cli(...args: string[]) {
		const printed: string[] = [];
		const code = await runCli(
			args,
			(text) => printed.push(text),
			(text) => printed.push(text),
		);
		return { code, out: printed.join('\n') };
	}

	it('refuses a bad flag value with the usage and exit code 1', async () => {
		const { code, out } = await cli('--faults', 'teapot=1');
		expect(code).toBe(1);
		expect(out).toMatch(/teapot[\s\S]*Usage: npm run sandbox/);
	});

	it('a change it cannot make exits 1 with the reason alone, not the usage', async () => {
		const { code, out } = await cli('pay-now', '--url', 'http://127.0.0.1:9');
		expect(code).toBe(1);
		expect(out).toBe('Unknown change "pay-now"; npm run sandbox -- --help lists them');
	});

	it('--help prints the usage, which lists every change of the table with the trigger events it makes', async () => {
		expect(await cli('--help')).toEqual({ code: 0, out: USAGE });
		for (const [name, change] of Object.entries(CHANGES)) {
			expect(USAGE).toContain(`  ${name} `);
			for (const expected of change.events)
				expect(USAGE).toContain(
					TRIGGER_EVENT_LABELS[typeof expected === 'string' ? expected : expected[0]],
				);
		}
	});

	describe('commands against a running sandbox', () => {
		const sandbox = withSandbox({}, { reset: true });
		/** What a command prints; it must succeed. */
		const command = async (...args: string[]) => {
			const { code, out } = await cli(...args, '--url', sandbox.baseUrl);
			expect({ code, out }).toMatchObject({ code: 0 });
			return out;
		};

		it('pay-part, then pay: each prints the inspection as it is now and the trigger events to expect', async () => {
			const part = await command('pay-part');
			const id = /inspection ([0-9a-f-]{36})/.exec(part)?.[1];
			expect(id).toBeDefined();
			expect(part).toMatch(new RegExp(`Inspection +${id} \\(confirmed\\)`));
			expect(part).toMatch(/Price +quote \d+, paid \d+(\.\d+)?, due \d+(\.\d+)? \(partial\)/);
			expect(part).toContain('Inspection Updated (inspection.updated)');
			expect(part).not.toContain('Inspection Paid');

			const rest = await command('pay');
			expect(rest).toMatch(new RegExp(`Inspection +${id} \\(confirmed\\)`));
			expect(rest).toMatch(/due 0 \(fully paid\)/);
			expect(rest).toMatch(/^ {2}Inspection Paid \(inspection.paid\)/m);
			expect(rest).toContain('The account sends no webhook for this change.');
		});

		it('confirm --id <inspection> acts on that inspection and says which webhook goes out', async () => {
			const created = await sandbox.control.createInspection({ org: 'acme', status: 'waiting' });
			const out = await command('confirm', '--id', String(created.id));
			expect(out).toContain(`Confirmed inspection ${String(created.id)}`);
			expect(out).toContain('Inspection Confirmed (inspection.confirmed)');
			expect(out).toContain('sends the webhook inspection.confirmed now');
		});
	});
}
