/**
 * What n8n and npm show of the package before anyone installs it: each node's
 * codex (the version it describes, its categories among n8n's, the words the
 * nodes panel finds it by) and package.json's keywords.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessTrigger } from '../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { InspectionBusinessWebhookTrigger } from '../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';

const root = join(__dirname, '..');
const readJson = <T>(file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as T;

interface Codex {
	node: string;
	nodeVersion: string;
	categories: string[];
	subcategories?: Record<string, string[]>;
	alias?: string[];
}
const pkg = readJson<{
	name: string;
	version: string;
	keywords: string[];
	n8n: { nodes: string[] };
}>('package.json');

/** The version a node added from the nodes panel gets. */
function defaultVersion(node: INodeType | IVersionedNodeType): number {
	const { description } = node;
	if ('defaultVersion' in description && description.defaultVersion !== undefined)
		return description.defaultVersion;
	const { version } = description as INodeType['description'];
	return Array.isArray(version) ? Math.max(...version) : version;
}

const NODES = [
	{ folder: 'InspectionBusiness', node: new InspectionBusiness(), version: 2 },
	{ folder: 'InspectionBusinessTrigger', node: new InspectionBusinessTrigger(), version: 2 },
	{
		folder: 'InspectionBusinessWebhookTrigger',
		node: new InspectionBusinessWebhookTrigger(),
		version: 2,
	},
];

/** n8n's own category names (n8n-nodes-base's codex files use these and no others). */
const N8N_CATEGORIES = [
	'Analytics',
	'Communication',
	'Core Nodes',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

describe.each(NODES)('the codex of $folder', ({ folder, node, version }) => {
	const codex = readJson<Codex>(`nodes/${folder}/${folder}.node.json`);

	test("describes the node's default version", () => {
		expect(defaultVersion(node)).toBe(version);
		expect(codex.nodeVersion).toBe(`${defaultVersion(node)}.0`);
		expect(codex.node).toBe(`${pkg.name}.${node.description.name}`);
		expect(pkg.n8n.nodes).toContain(`dist/nodes/${folder}/${folder}.node.js`);
	});

	test("files the node under n8n's categories: Sales (CRM) first", () => {
		expect(codex.categories[0]).toBe('Sales');
		expect(codex.categories.filter((category) => !N8N_CATEGORIES.includes(category))).toEqual([]);
		expect(codex.subcategories?.Sales).toEqual(['CRM']);
		for (const category of Object.keys(codex.subcategories ?? {}))
			expect(codex.categories).toContain(category);
	});

	test('is found by the words inspection companies search for', () => {
		expect(codex.alias).toEqual(
			expect.arrayContaining(['home inspection', 'inspector', 'property inspection', 'ISN']),
		);
	});
});

test('the nodes that read prices and payments are filed under Finance & Accounting too', () => {
	const categories = (folder: string) =>
		readJson<Codex>(`nodes/${folder}/${folder}.node.json`).categories;
	// The action node reads quotes, payments and revenue; the polling trigger reports payment changes.
	expect(categories('InspectionBusiness')).toContain('Finance & Accounting');
	expect(categories('InspectionBusinessTrigger')).toContain('Finance & Accounting');
	// The webhook events are about schedules and contacts, not money.
	expect(categories('InspectionBusinessWebhookTrigger')).not.toContain('Finance & Accounting');
});

test("package.json's keywords: n8n's marker and what users search on npm", () => {
	expect(pkg.keywords[0]).toBe('n8n-community-node-package');
	expect(pkg.keywords).toEqual(
		expect.arrayContaining(['home-inspection', 'property-inspection', 'inspection-report', 'crm']),
	);
	expect(new Set(pkg.keywords).size).toBe(pkg.keywords.length);
});
