/**
 * `npm run bench:mutation [-- <target>...]`: StrykerJS over the polling
 * trigger's core and the transport (bench/mutation/targets.js), one target
 * after the other, then each target's mutation score. StrykerJS 10 needs Node
 * 22 or later; it runs on the Node 24 that the e2e setup installs into the
 * cache (scripts/n8n-runtime.ts). Not part of `npm test`: a target takes from
 * tens of minutes to about an hour on 2 cores.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureRuntime } from '../../scripts/n8n-runtime';
import { PACKAGE_DIR } from '../../scripts/package-tarball';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TARGETS } = require('./targets.js') as { TARGETS: Record<string, unknown> };

interface MutantResult {
	status: string;
}
interface Report {
	files: Record<string, { mutants: MutantResult[] }>;
}

/** Killed, timed out and (tests) errored count as detected; ignored and not-compiling are left out. */
function score(report: Report) {
	const counts: Record<string, number> = {};
	for (const file of Object.values(report.files))
		for (const mutant of file.mutants) counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
	const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0) + (counts.RuntimeError ?? 0);
	const undetected = (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
	return { counts, percent: (100 * detected) / Math.max(1, detected + undetected) };
}

async function main(): Promise<void> {
	// Target names pick targets; anything else goes to StrykerJS (e.g. --mutate <file>).
	const args = process.argv.slice(2);
	const names = args.filter((arg) => arg in TARGETS);
	const passed = args.filter((arg) => !(arg in TARGETS));
	const targets = names.length > 0 ? names : Object.keys(TARGETS);
	const runtime = await ensureRuntime((line) => process.stderr.write(`${line}\n`));
	const stryker = path.join(PACKAGE_DIR, 'node_modules/@stryker-mutator/core/bin/stryker.js');
	const lines: string[] = [];
	for (const name of targets) {
		const started = Date.now();
		const result = spawnSync(
			runtime.node,
			[stryker, 'run', 'bench/mutation/stryker.config.mjs', ...passed],
			{
				cwd: PACKAGE_DIR,
				stdio: 'inherit',
				env: { ...process.env, MUTATION_TARGET: name, PATH: runtime.env().PATH },
			},
		);
		if (result.status !== 0) throw new Error(`StrykerJS failed on ${name} (exit ${result.status})`);
		const report = JSON.parse(
			readFileSync(path.join(PACKAGE_DIR, 'reports/mutation', name, 'mutation.json'), 'utf8'),
		) as Report;
		const { counts, percent } = score(report);
		const minutes = ((Date.now() - started) / 60_000).toFixed(1);
		lines.push(`${name}: ${percent.toFixed(1)}% ${JSON.stringify(counts)} in ${minutes} min`);
	}
	process.stdout.write(`\nMutation scores\n${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).message}\n`);
	process.exit(1);
});
