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

export interface BuiltNode {
	/** The type name n8n gives it, e.g. `inspectionBusiness`. */
	name: string;
	displayName: string;
	/** The version n8n records for it (a versioned node's default version). */
	version: number;
}

/** The nodes of the built package (`dist/`), as n8n describes them once loaded. */
export async function builtNodes(): Promise<BuiltNode[]> {
	const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	};
	const nodes: BuiltNode[] = [];
	for (const file of manifest.n8n.nodes) {
		const exported = (await import(path.join(PACKAGE_DIR, file))) as Record<
			string,
			new () => unknown
		>;
		const { description } = new exported[path.basename(file, '.node.js')]() as {
			description: {
				name: string;
				displayName: string;
				version?: number | number[];
				defaultVersion?: number;
			};
		};
		const versions = [description.version ?? 1].flat();
		nodes.push({
			name: description.name,
			displayName: description.displayName,
			version: description.defaultVersion ?? Math.max(...versions),
		});
	}
	return nodes;
}

/** package.json's author, as n8n records it for an installed package. */
export function packageAuthor(): { name?: string; email?: string } {
	const { author } = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
		author?: { name?: string; email?: string };
	};
	return author ?? {};
}

/** `n8n-node build`: tsc over nodes/ and credentials/, icons copied into dist/. */
export async function buildPackage(dir = PACKAGE_DIR): Promise<void> {
	await run(path.join(PACKAGE_DIR, 'node_modules', '.bin', 'n8n-node'), ['build'], {
		cwd: dir,
		env: cleanEnv({ CI: 'true', NO_COLOR: '1' }),
		timeoutMs: 5 * MINUTE,
	});
}

/**
 * `npm pack` into `destination`, or `npm pack --dry-run` when no destination is given; `dir`:
 * another checkout of the package (the benchmarks compare one).
 */
export async function packPackage(destination?: string, dir = PACKAGE_DIR): Promise<PackResult> {
	const args = destination
		? ['pack', '--json', '--pack-destination', destination]
		: ['pack', '--json', '--dry-run'];
	const { stdout } = await run('npm', args, {
		cwd: dir,
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
