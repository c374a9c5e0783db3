/** `npm run sandbox` (tsx sandbox/cli.ts): flags, printed base URL and keys, clean stop. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sleep } from 'n8n-workflow';
import { SANDBOX_KEYS } from './support';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

function run(args: string[]) {
	const child = spawn(TSX, ['sandbox/cli.ts', ...args], { cwd: ROOT });
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const printed = async (pattern: RegExp) => {
		for (let i = 0; i < 200 && !pattern.test(out); i++) await sleep(50);
		return out;
	};
	return { child, exited, printed };
}

it('starts in the foreground with the given flags, prints its URL and the keys, and stops on SIGTERM', async () => {
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
});

it('refuses a bad flag value with the usage and exit code 1', async () => {
	const cli = run(['--faults', 'teapot=1']);
	expect(await cli.exited).toBe(1);
	expect(await cli.printed(/Usage/)).toMatch(/teapot[\s\S]*Usage: npm run sandbox/);
});
