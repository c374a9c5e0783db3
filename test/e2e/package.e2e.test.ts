/**
 * The package as n8n and npm see it: what `npm pack` ships, what a real n8n
 * loads from the installed tarball, and n8n's community-package scanner rules.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureScanner, scanLocalPackage } from '../../scripts/community-scanner';
import {
	declaredNodeTypes,
	PACKAGE_DIR,
	PACKAGE_NAME,
	packPackage,
} from '../../scripts/package-tarball';
import { useN8n } from './support/instance';
import { readState } from './support/state';

const instance = useN8n('package', { template: 'fresh', ui: true });
const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
	version: string;
	n8n: { nodes: string[]; credentials: string[] };
};

describe('npm pack', () => {
	it('ships only dist/, README.md, LICENSE and package.json, with every file n8n loads', async () => {
		const { files } = await packPackage();
		const outside = files.filter(
			(file) =>
				!file.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(file),
		);
		expect(outside).toEqual([]);
		expect(files).toEqual(
			expect.arrayContaining([
				'README.md',
				'LICENSE',
				'package.json',
				...manifest.n8n.nodes,
				...manifest.n8n.nodes.map((file) => file.replace(/\.js$/, '.json')),
				...manifest.n8n.credentials,
			]),
		);
		// Nothing that is never shipped was compiled into dist/.
		expect(
			files.filter((file) => /^dist\/(sandbox|test|scripts|examples|openapi)\//.test(file)),
		).toEqual([]);
	});
});

describe('n8n with the package installed from its tarball', () => {
	const nodesDir = () => path.join(instance.userFolder.folder, '.n8n', 'nodes');

	it('installed the packed version under .n8n/nodes, as a community package', () => {
		const installedManifest = JSON.parse(
			readFileSync(path.join(nodesDir(), 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8'),
		) as { version: string };
		expect(installedManifest.version).toBe(manifest.version);
		const nodesManifest = JSON.parse(
			readFileSync(path.join(nodesDir(), 'package.json'), 'utf8'),
		) as {
			dependencies: Record<string, string>;
		};
		expect(nodesManifest.dependencies).toEqual({ [PACKAGE_NAME]: manifest.version });
	});

	it('lists the three node types, the action node as an AI-agent tool too, and the credential type', async () => {
		const server = instance.rest;
		const nodeTypes = await server.get<Array<{ name: string }>>('/types/nodes.json');
		const ours = [
			...new Set(
				nodeTypes.map((type) => type.name).filter((name) => name.startsWith(`${PACKAGE_NAME}.`)),
			),
		];
		// n8n derives `<name>Tool` from a node that is usableAsTool (agentToolNotMcp: AI agents use the read operations).
		const expected = [
			'inspectionBusiness',
			'inspectionBusinessTool',
			'inspectionBusinessTrigger',
			'inspectionBusinessWebhookTrigger',
		];
		expect(ours.sort()).toEqual(expected.map((name) => `${PACKAGE_NAME}.${name}`));
		const credentialTypes =
			await server.get<Array<{ name: string; displayName: string }>>('/types/credentials.json');
		expect(credentialTypes.find((type) => type.name === 'inspectionBusinessApi')?.displayName).toBe(
			'Inspection Business API',
		);
	});
});

describe('n8n shows the package as a user sees it after installing it', () => {
	it('lists it in Settings → Community nodes, with its three nodes', async () => {
		const packages = await instance.rest.rest<
			Array<{
				packageName: string;
				installedVersion: string;
				installedNodes: Array<{ name: string; type: string }>;
			}>
		>('GET', '/rest/community-packages');
		const ours = packages.find((pkg) => pkg.packageName === PACKAGE_NAME);
		expect(ours?.installedVersion).toBe(manifest.version);
		expect(ours?.installedNodes.map((node) => node.type).sort()).toEqual(
			declaredNodeTypes().map((name) => `${PACKAGE_NAME}.${name}`),
		);
	});

	it("gives each node the codex's categories, search words and documentation link to the README", async () => {
		const nodeTypes = await instance.rest.get<
			Array<{
				name: string;
				codex?: {
					categories?: string[];
					alias?: string[];
					resources?: { primaryDocumentation?: Array<{ url: string }> };
				};
			}>
		>('/types/nodes.json');
		for (const name of declaredNodeTypes()) {
			const type = nodeTypes.find((candidate) => candidate.name === `${PACKAGE_NAME}.${name}`);
			const folder = name.charAt(0).toUpperCase() + name.slice(1);
			const codex = JSON.parse(
				readFileSync(path.join(PACKAGE_DIR, 'nodes', folder, `${folder}.node.json`), 'utf8'),
			) as { categories: string[]; alias: string[] };
			expect(type?.codex?.categories).toEqual(codex.categories);
			expect(type?.codex?.categories).toContain('Sales');
			expect(type?.codex?.alias).toEqual(codex.alias);
			expect(type?.codex?.resources?.primaryDocumentation?.[0]?.url).toMatch(
				/^https:\/\/github\.com\/inspection-business\/n8n-nodes-inspection-business#[a-z-]+$/,
			);
		}
	});
});

describe("n8n's community-package scanner rules", () => {
	it('pass on package.json, nodes/ and credentials/, and on the packed .js files', async () => {
		const scanner = await ensureScanner();
		const result = await scanLocalPackage(scanner, PACKAGE_DIR, readState().tarball);
		expect(result.source.files).toBeGreaterThan(10);
		expect(result.tarball.files).toBeGreaterThan(3);
		expect({ passed: result.source.passed, details: result.source.details }).toEqual({
			passed: true,
			details: undefined,
		});
		expect({ passed: result.tarball.passed, details: result.tarball.details }).toEqual({
			passed: true,
			details: undefined,
		});
	});
});
