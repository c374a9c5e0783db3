/** Builds this package and packs it, as `npm publish` would ship it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanEnv, run } from './processes';

export const PACKAGE_DIR = path.resolve(__dirname, '..');
export const PACKAGE_NAME = 'n8n-nodes-inspection-business';

const MINUTE = 60_000;

export interface PackResult {
	/** Absolute path of the .tgz (empty for a dry run). */
	tarball: string;
	name: string;
	version: string;
	/** Paths inside the package, e.g. `dist/nodes/...`, `package.json`. */
	files: string[];
}

/**
 * The node types package.json declares to n8n (`n8n.nodes`), by type name:
 * `dist/nodes/X/InspectionBusiness.node.js` is `inspectionBusiness`.
 */
export function declaredNodeTypes(): string[] {
	const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	};
	return manifest.n8n.nodes.map((file) => {
		const className = path.basename(file, '.node.js');
		return className.charAt(0).toLowerCase() + className.slice(1);
	});
}

/** `n8n-node build`: tsc over nodes/ and credentials/, icons copied into dist/. */
export async function buildPackage(): Promise<void> {
	await run(path.join(PACKAGE_DIR, 'node_modules', '.bin', 'n8n-node'), ['build'], {
		cwd: PACKAGE_DIR,
		env: cleanEnv({ CI: 'true', NO_COLOR: '1' }),
		timeoutMs: 5 * MINUTE,
	});
}

/** `npm pack` into `destination`, or `npm pack --dry-run` when no destination is given. */
export async function packPackage(destination?: string): Promise<PackResult> {
	const args = destination
		? ['pack', '--json', '--pack-destination', destination]
		: ['pack', '--json', '--dry-run'];
	const { stdout } = await run('npm', args, {
		cwd: PACKAGE_DIR,
		env: cleanEnv(),
		timeoutMs: 2 * MINUTE,
	});
	const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
		name: string;
		version: string;
		filename: string;
		files: Array<{ path: string }>;
	}>;
	return {
		tarball: destination ? path.join(destination, packed.filename) : '',
		name: packed.name,
		version: packed.version,
		files: packed.files.map((file) => file.path).sort(),
	};
}
