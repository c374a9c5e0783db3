/**
 * The editor's pickers: tags by name and by ID (loadOptions) and agencies
 * (listSearch), run on n8n-core's LoadOptionsContext.
 */
import type { IDataObject, INode, INodeListSearchResult } from 'n8n-workflow';

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
	let agencies: IDataObject[];
	beforeAll(async () => {
		agencies = (await allPages(sandbox, '/v1/agencies')).records;
	});

	test('lists agencies by name with their IDs, one API page per call', async () => {
		await sandbox.control.clearRequests();
		const result = await runListSearch('searchAgencies');
		expect(result.results).toEqual(
			agencies.slice(0, 200).map((a) => ({ name: a.name, value: a.id })),
		);
		const log = await requests(sandbox);
		expect(log).toHaveLength(1);
		expect(log[0].query.limit).toBe('200');
	});

	test('filters by name, case-insensitively', async () => {
		const name = String(agencies[3].name);
		const needle = name.slice(1, 5).toUpperCase();
		const result = await runListSearch('searchAgencies', needle);
		expect(result.results.length).toBeGreaterThan(0);
		expect(result.results.every((r) => r.name.toLowerCase().includes(needle.toLowerCase()))).toBe(
			true,
		);
		expect(result.results.map((r) => r.value)).toContain(agencies[3].id);
	});
});
