/**
 * Records what the minimum supported n8n offers a community package, for the offline
 * test test/compat/minimum-n8n.test.ts:
 *
 *   npx tsx scripts/n8n-workflow-fixture.ts <n8n version> <its n8n-workflow version>
 *
 * fetches that n8n-workflow with `npm pack` (its declarations only: nothing is installed),
 * reads its surface (scripts/n8n-workflow-surface.ts) and writes
 * test/compat/minimum-n8n.json. `npm view n8n@<version> dependencies.n8n-workflow`
 * names the n8n-workflow a release ships with.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readWorkflowSurface } from './n8n-workflow-surface';
import { PACKAGE_DIR } from './package-tarball';
import { cleanEnv, run } from './processes';

export const MINIMUM_FIXTURE = path.join(PACKAGE_DIR, 'test', 'compat', 'minimum-n8n.json');

async function main(): Promise<void> {
	const [n8n, workflow] = process.argv.slice(2);
	if (!/^\d+\.\d+\.\d+$/.test(n8n ?? '') || !/^\d+\.\d+\.\d+$/.test(workflow ?? ''))
		throw new Error(
			'Usage: npx tsx scripts/n8n-workflow-fixture.ts <n8n version> <n8n-workflow version>',
		);
	const work = mkdtempSync(path.join(tmpdir(), 'ib-n8n-workflow-'));
	try {
		const env = cleanEnv();
		const { stdout } = await run('npm', ['pack', `n8n-workflow@${workflow}`, '--silent'], {
			cwd: work,
			env,
			timeoutMs: 5 * 60_000,
		});
		const tarball = path.join(work, stdout.trim().split('\n').pop() ?? '');
		const unpacked = path.join(work, 'package');
		mkdirSync(unpacked);
		await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], {
			env,
			timeoutMs: 60_000,
		});
		const surface = readWorkflowSurface(unpacked);
		const fixture = {
			n8n,
			note: `What n8n-workflow ${workflow} (shipped with n8n ${n8n}) offers; written by scripts/n8n-workflow-fixture.ts`,
			...surface,
		};
		writeFileSync(MINIMUM_FIXTURE, `${JSON.stringify(fixture, null, '\t')}\n`);
		console.log(
			`Wrote ${path.relative(PACKAGE_DIR, MINIMUM_FIXTURE)} (n8n ${n8n}, n8n-workflow ${surface.version})`,
		);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
