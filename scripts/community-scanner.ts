/**
 * n8n's community-package scanner (`npx @n8n/scan-community-package <name>`)
 * only scans packages published to npm with provenance. Its lint step is an
 * exported function, though, so this runs exactly that step on local files:
 * the source leg (package.json, nodes/, credentials/) and the packed-tarball
 * leg (every .js and the published package.json), as the scanner does.
 *
 * Usage: npx tsx scripts/community-scanner.ts   (builds, packs, scans; exit 1 on violations)
 */
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cacheRoot } from './n8n-runtime';
import { buildPackage, PACKAGE_DIR, packPackage } from './package-tarball';
import { cleanEnv, run } from './processes';

export const SCANNER_VERSION = '0.32.0';
/**
 * Installed with --legacy-peer-deps (the registry mirror lacks peers deep in
 * n8n's tree), so the peers its rules load are listed here: n8n-workflow (the
 * community-nodes ESLint plugin's peer) and typescript. The scanner pins
 * typescript 7, whose package has no JS compiler API, so its own
 * @typescript-eslint parser (peer typescript <6.1) cannot load; 5.9 (what this
 * package builds with) replaces it.
 */
const SCANNER_MANIFEST = {
	private: true,
	dependencies: {
		'@n8n/scan-community-package': SCANNER_VERSION,
		'n8n-workflow': '2.41.0',
		typescript: '5.9.3',
	},
	overrides: { typescript: '5.9.3' },
};
const MINUTE = 60_000;

export interface ScanLeg {
	passed: boolean;
	message?: string;
	/** ESLint's "stylish" report of the violations. */
	details?: string;
	/** How many files the leg linted (the scanner passes an empty leg). */
	files: number;
}

export interface ScanResult {
	source: ScanLeg;
	tarball: ScanLeg;
}

/**
 * Installs the pinned scanner into the cache folder (once). Several test runs may share the cache,
 * so it is installed into a folder of this process's own and renamed into place: a run never sees
 * (or finishes) another run's half-done install.
 */
export async function ensureScanner(): Promise<string> {
	const folder = path.join(cacheRoot(), `scan-community-package-${SCANNER_VERSION}`);
	const entryIn = (root: string) =>
		path.join(root, 'node_modules', '@n8n', 'scan-community-package', 'scanner', 'scanner.mjs');
	const recipe = JSON.stringify(SCANNER_MANIFEST, null, 2);
	const installed = (root: string) =>
		existsSync(entryIn(root)) && readFileOr(path.join(root, '.installed')) === recipe;
	if (installed(folder)) return entryIn(folder);
	const staging = `${folder}.installing-${process.pid}`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	writeFileSync(path.join(staging, 'package.json'), recipe);
	await run(
		'npm',
		['install', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund'],
		{ cwd: staging, env: cleanEnv(), timeoutMs: 10 * MINUTE },
	);
	writeFileSync(path.join(staging, '.installed'), recipe);
	if (!installed(folder)) {
		// An outdated or broken install goes first; another run may have just put a good one there.
		rmSync(folder, { recursive: true, force: true });
		try {
			renameSync(staging, folder);
		} catch (error) {
			if (!installed(folder)) throw error;
		}
	}
	rmSync(staging, { recursive: true, force: true });
	return entryIn(folder);
}

function readFileOr(file: string): string {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

/** The scanner's own lint step, run in a child process (it is an ES module with its own ESLint). */
const LINT_SCRIPT = `
import glob from 'fast-glob';
const [scannerPath, sourceDir, packageDir] = process.argv.slice(1);
const scanner = await import(scannerPath);
const leg = async (dir, patterns) => {
	const files = glob.sync(patterns, { cwd: dir, ignore: ['node_modules/**', '**/package-lock.json'] }).length;
	const { passed, message, details } = await scanner.analyzePackage(dir, patterns);
	return { passed, message, details, files };
};
const source = await leg(sourceDir, scanner.SOURCE_FILE_PATTERNS);
const tarball = await leg(packageDir, ['**/*.js', 'package.json']);
process.stdout.write(JSON.stringify({ source, tarball }));
`;

/** Scans the source tree and an unpacked tarball with the scanner's rules. */
export async function scanLocalPackage(
	scannerEntry: string,
	sourceDir: string,
	tarball: string,
): Promise<ScanResult> {
	const unpacked = mkdtempSync(path.join(tmpdir(), 'ib-scan-'));
	try {
		await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], {
			timeoutMs: MINUTE,
		});
		const { stdout } = await run(
			process.execPath,
			['--input-type=module', '-e', LINT_SCRIPT, scannerEntry, sourceDir, unpacked],
			{
				// fast-glob resolves from the scanner's own node_modules.
				cwd: path.dirname(scannerEntry),
				env: cleanEnv(),
				timeoutMs: 5 * MINUTE,
			},
		);
		return JSON.parse(stdout) as ScanResult;
	} finally {
		rmSync(unpacked, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	const entry = await ensureScanner();
	await buildPackage();
	const destination = mkdtempSync(path.join(tmpdir(), 'ib-pack-'));
	try {
		const packed = await packPackage(destination);
		const result = await scanLocalPackage(entry, PACKAGE_DIR, packed.tarball);
		for (const [name, leg] of Object.entries(result)) {
			console.log(
				`${leg.passed ? 'passed' : 'FAILED'}: ${name} (${leg.files} files)${leg.message ? `: ${leg.message}` : ''}`,
			);
			if (leg.details) console.log(leg.details);
		}
		const version = (
			JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
				version: string;
			}
		).version;
		console.log(
			`@n8n/scan-community-package@${SCANNER_VERSION} rules on ${packed.name}@${version}`,
		);
		process.exitCode = result.source.passed && result.tarball.passed ? 0 : 1;
	} finally {
		rmSync(destination, { recursive: true, force: true });
	}
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
