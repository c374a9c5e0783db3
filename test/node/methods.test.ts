/**
 * The editor's pickers: tags by name and by ID (loadOptions) and agencies
 * (listSearch), run on n8n-core's LoadOptionsContext.
 */
import type { INode, INodeListSearchResult } from 'n8n-workflow';

import { runLoadOptions, withSandbox } from '../helpers/n8n';
import {
	additionalData,
	bootN8nCore,
	buildWorkflow,
	credentialData,
	latestVersion,
	NodeTypeRegistry,
	nodeCredentials,
	typeName,
} from '../helpers/runtime';
import { allPages, KEY, node, requests } from './support';

const sandbox = withSandbox();

/**
 * The harness has no listSearch runner; this mirrors its runLoadOptions with
 * the same runtime pieces, calling `methods.listSearch[name]` instead.
 */
async function runListSearch(
	method: string,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const core = await bootN8nCore();
	const credentials = sandbox.credentials();
	const type = typeName(node);
	const definition: INode = {
		id: 'harness-node',
		name: 'Node',
		type,
		typeVersion: latestVersion(node),
		position: [0, 0],
		parameters: { resource: 'contact', operation: 'create' },
		credentials: nodeCredentials(credentials),
	};
	const workflow = buildWorkflow([definition], {}, new NodeTypeRegistry().add(type, node));
	const nodeType = workflow.nodeTypes.getByNameAndVersion(type, definition.typeVersion);
	const search = nodeType.methods?.listSearch?.[method];
	if (!search) throw new Error(`No listSearch method ${method}`);
	const workflowNode = workflow.getNode('Node') as INode;
	const context = new core.LoadOptionsContext(
		workflow,
		workflowNode,
		additionalData(credentialData(credentials)),
		'',
	);
	const result = await search.call(context, filter, paginationToken);
	expect(JSON.stringify(result)).not.toContain(KEY);
	return result;
}

async function loadOptions(method: string) {
	const options = await runLoadOptions({
		node,
		method,
		parameters: { resource: 'contact', operation: 'create' },
		credentials: sandbox.credentials(),
	});
	expect(JSON.stringify(options)).not.toContain(KEY);
	return options;
}

test('getTags lists every tag by name, sorted, with its contact count', async () => {
	const tags = (await allPages(sandbox, '/v1/tags')).records;
	await sandbox.control.clearRequests();
	const options = await loadOptions('getTags');
	const expected = [...tags].sort((a, b) => String(a.name).localeCompare(String(b.name)));
	expect(options).toEqual(
		expected.map((tag) => ({
			name: tag.name,
			value: tag.name,
			description: `${String(tag.contact_count)} contacts`,
		})),
	);
	expect((await requests(sandbox)).every((entry) => entry.query.limit === '200')).toBe(true);
});

test('getTagIds gives the same tags with their IDs as values', async () => {
	const byName = await loadOptions('getTags');
	const byId = await loadOptions('getTagIds');
	expect(byId.map((o) => o.name)).toEqual(byName.map((o) => o.name));
	expect(byId.every((o) => /^[0-9a-f-]{36}$/.test(String(o.value)))).toBe(true);
});

describe('searchAgencies', () => {
	const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
	let agencies: { name: string; value: string }[];
	let pages: number;
	beforeAll(async () => {
		// More agencies than one page of 200, so a search must walk past the first page.
		const seeded = (await allPages(sandbox, '/v1/agencies')).records.length;
		for (let i = seeded; i < 230; i++)
			await sandbox.control.createAgency('acme', `Zephyr Realty ${String(i).padStart(3, '0')}`);
		const all = await allPages(sandbox, '/v1/agencies');
		agencies = all.records.map((a) => ({ name: String(a.name), value: String(a.id) }));
		pages = all.pages;
		expect(pages).toBeGreaterThan(1);
	});

	test('lists every agency, sorted by name, walking each page once with limit 200', async () => {
		await sandbox.control.clearRequests();
		const result = await runListSearch('searchAgencies');
		expect(result.results).toEqual([...agencies].sort(byName));
		expect(result.paginationToken).toBeUndefined();
		const log = await requests(sandbox);
		expect(log).toHaveLength(pages);
		expect(log.every((entry) => entry.query.limit === '200')).toBe(true);
	});

	test('filters by name over all pages, case-insensitively', async () => {
		// The last agency the API serves (ordered by id) is on the last page.
		const lastServed = agencies[agencies.length - 1];
		const needle = lastServed.name.slice(1).toUpperCase();
		const result = await runListSearch('searchAgencies', needle);
		const expected = agencies
			.filter((a) => a.name.toLowerCase().includes(needle.toLowerCase()))
			.sort(byName);
		expect(result.results).toEqual(expected);
		expect(result.results).toContainEqual(lastServed);
	});
});
