/**
 * The editor's pickers: tags by name and by ID (loadOptions) and the
 * locators' From List (listSearch), run on n8n-core's LoadOptionsContext.
 */
import type {
	IDataObject,
	INode,
	INodeListSearchResult,
	INodeParameters,
	NodeParameterValueType,
} from 'n8n-workflow';

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
import { allPages, api, KEY, node, requests } from './support';

export function pickers(): void {
	const sandbox = withSandbox();

	/**
	 * The harness has no listSearch runner; this mirrors its runLoadOptions with
	 * the same runtime pieces, calling `methods.listSearch[name]` instead.
	 */
	async function runListSearch(
		method: string,
		filter?: string,
		paginationToken?: string,
		parameters: INodeParameters = { resource: 'contact', operation: 'create' },
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
			parameters,
			credentials: nodeCredentials(credentials),
		};
		const workflow = buildWorkflow([definition], {}, new NodeTypeRegistry().add(type, node));
		const nodeType = workflow.nodeTypes.getByNameAndVersion(type, definition.typeVersion);
		const search = nodeType.methods?.listSearch?.[method];
		if (!search) throw new Error(`No listSearch method ${method}`);
		const workflowNode = workflow.getNode('Node') as INode;
		// The editor sends the node's current parameters with each search.
		const data = {
			...additionalData(credentialData(credentials)),
			currentNodeParameters: parameters,
		};
		const context = new core.LoadOptionsContext(workflow, workflowNode, data, '');
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

	describe('searchContacts', () => {
		test('sends the filter as the API search and labels contacts "name <email>"', async () => {
			const contacts = (await allPages(sandbox, '/v1/contacts')).records;
			const target = contacts[5];
			const needle = String(target.email).slice(0, 6);
			await sandbox.control.clearRequests();
			const result = await runListSearch('searchContacts', needle);
			const log = await requests(sandbox);
			expect(log).toHaveLength(1);
			expect(log[0].query).toMatchObject({ search: needle, limit: '200' });
			const label = `${[target.first_name, target.last_name].filter(Boolean).join(' ')} <${String(target.email)}>`;
			expect(result.results).toContainEqual({ name: label, value: target.id });
		});

		test('pages through the API with the cursor as pagination token', async () => {
			type Page = { data: IDataObject[]; next_cursor: string };
			const page = await api<Page>(sandbox, '/v1/contacts', { limit: '200' });
			const next = await api<Page>(sandbox, '/v1/contacts', {
				limit: '200',
				cursor: page.next_cursor,
			});
			const first = await runListSearch('searchContacts');
			expect(first.results.map((r) => r.value)).toEqual(page.data.map((c) => c.id));
			expect(first.paginationToken).toBe(page.next_cursor);
			await sandbox.control.clearRequests();
			const second = await runListSearch('searchContacts', undefined, first.paginationToken);
			expect((await requests(sandbox))[0].query.cursor).toBe(first.paginationToken);
			expect(second.results.map((r) => r.value)).toEqual(next.data.map((c) => c.id));
		});
	});

	test('searchInspections: most recently updated first, canceled too, "address · date · client"', async () => {
		await sandbox.control.clearRequests();
		const result = await runListSearch('searchInspections');
		const log = await requests(sandbox);
		expect(log[0].query).toMatchObject({ sort: '-updated_at', include_canceled: 'true' });
		const page = await api<{ data: IDataObject[] }>(sandbox, '/v1/inspections', {
			sort: '-updated_at',
			include_canceled: 'true',
			limit: '200',
		});
		expect(result.results.map((r) => r.value)).toEqual(page.data.map((i) => i.id));
		const withClient = page.data.find((i) =>
			(i.contacts as IDataObject[]).some((c) => c.role === 'Customer'),
		) as IDataObject;
		const client = (withClient.contacts as IDataObject[]).find((c) => c.role === 'Customer')!;
		const label = result.results.find((r) => r.value === withClient.id)?.name;
		expect(label).toBe(
			[
				(withClient.address as IDataObject).full,
				String(withClient.scheduled_for).slice(0, 16).replace('T', ' '),
				[client.first_name, client.last_name].filter(Boolean).join(' '),
			].join(' · '),
		);
		const street = String((withClient.address as IDataObject).full).slice(0, 8);
		const filtered = await runListSearch('searchInspections', street.toUpperCase());
		expect(filtered.results.map((r) => r.value)).toContain(withClient.id);
		expect(filtered.results.every((r) => r.name.toLowerCase().includes(street.toLowerCase()))).toBe(
			true,
		);
	});

	test('searchEvents labels events "name · start"', async () => {
		const page = await api<{ data: IDataObject[] }>(sandbox, '/v1/events', { limit: '200' });
		const result = await runListSearch('searchEvents');
		expect(result.results.map((r) => r.value)).toEqual(page.data.map((e) => e.id));
		expect(result.results[0].name).toContain(' · ');
	});

	describe('searchAttachments', () => {
		let attachment: IDataObject;
		beforeAll(async () => {
			attachment = (await api<{ data: IDataObject[] }>(sandbox, '/v1/attachments', { limit: '1' }))
				.data[0];
		});
		const inNode = (inspection: NodeParameterValueType) => ({
			resource: 'attachment',
			operation: 'download',
			inspection_id: inspection,
		});

		test("lists the attachments of the node's inspection, whichever mode picks it", async () => {
			const inspectionId = String(attachment.inspection_id);
			const expected = (await allPages(sandbox, `/v1/inspections/${inspectionId}/attachments`))
				.records;
			const portal = (
				await api<{ data: IDataObject[] }>(sandbox, '/v1/inspections', { ids: inspectionId })
			).data[0].portal_url;
			const picks: NodeParameterValueType[] = [
				{ __rl: true, mode: 'list', value: inspectionId },
				{ __rl: true, mode: 'url', value: String(portal) },
				inspectionId,
			];
			for (const picked of picks) {
				const result = await runListSearch(
					'searchAttachments',
					undefined,
					undefined,
					inNode(picked),
				);
				expect(result.results.map((r) => r.value)).toEqual(expected.map((a) => String(a.id)));
				expect(result.results[0].name).toMatch(/\((report|document)\)$/);
			}
		});

		test('without an inspection, the list is empty and nothing is sent', async () => {
			await sandbox.control.clearRequests();
			const result = await runListSearch(
				'searchAttachments',
				undefined,
				undefined,
				inNode({ __rl: true, mode: 'list', value: '' }),
			);
			expect(result.results).toEqual([]);
			expect(await requests(sandbox)).toHaveLength(0);
		});
	});
}
