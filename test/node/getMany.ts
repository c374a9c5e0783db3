/**
 * Get Many of every resource: empty and bad filters, sort and direction, Return
 * All and Limit request counts, id lists over 200. What each filter sends is a
 * row of the request table (requests.test.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { allOperations } from '../support/fieldMap';
import { resources } from '../../nodes/InspectionBusiness/actions/router';
import { SIMPLIFIED_INSPECTION_FIELDS } from '../../nodes/InspectionBusiness/helpers/simplifiedRecords';
import type { Endpoint } from '../../nodes/shared/endpoints';
import { ENDPOINTS, endpointPath } from '../../nodes/shared/endpoints';
import { sortValue } from '../../nodes/InspectionBusiness/helpers/wireValues';
import { withSandbox } from '../helpers/n8n';
import { allPages, api, requests, run } from './support';

export function getMany(): void {
	const sandbox = withSandbox();

	const getManyOperations = allOperations().filter(({ operation }) =>
		operation.startsWith('getAll'),
	);

	/** An inspection with attachments, for the per-inspection list (its path needs a real one). */
	let inspectionWithAttachments: string;
	beforeAll(async () => {
		const page = await api<{ data: IDataObject[] }>(sandbox, '/v1/attachments', { limit: '1' });
		inspectionWithAttachments = String(page.data[0].inspection_id);
	});

	/** Attachments are unique within their inspection only; contact stats are keyed by contact. */
	const recordKey = (record: IDataObject) =>
		`${String(record.inspection_id ?? record.contact_id ?? '')}/${String(record.id ?? '')}`;

	const endpointOf = (resource: string, operation: string) =>
		resources[resource][operation].endpoint;
	const pathParamsOf = (resource: string, operation: string): INodeParameters =>
		ENDPOINTS[endpointOf(resource, operation)].pathParams.length
			? { inspection_id: inspectionWithAttachments }
			: {};
	const pathOf = (resource: string, operation: string) =>
		endpointPath(endpointOf(resource, operation), { inspection_id: inspectionWithAttachments });

	describe('filters', () => {
		test('a filter left empty is not sent', async () => {
			await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { search: '', tag: [] },
			});
			const [entry] = await requests(sandbox);
			expect(Object.keys(entry.query)).toEqual(['limit']);
		});

		test('a bad filter value is refused locally, naming the parameter, with no request', async () => {
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { updated_since: 'yesterday' },
			});
			expect(result.error?.message).toContain('updated_since');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		// A value mapped by expression that is not text (a number, an object) is never dropped, which
		// would send the list unfiltered: a number is checked as text, anything else is refused as
		// what it is (a one-value filter mapped to true or a list read as empty before).
		test.each([
			{ filters: { tag_id: 12345 }, field: 'tag_id', says: '"12345" is not an ID' },
			{ filters: { tag_id: { id: 'x' } }, field: 'tag_id', says: 'got object' },
			{ filters: { agency_id: true }, field: 'agency_id', says: 'got boolean' },
			{ filters: { tag: { name: 'VIP' } }, field: 'tag', says: 'got object' },
			{ filters: { tag: [['VIP']] }, field: 'tag', says: 'got a nested list' },
			{ filters: { role: true }, field: 'role', says: 'got boolean' },
			{ filters: { role: ['agent'] }, field: 'role', says: 'got a list' },
		])(
			'a filter mapped to $filters is refused, naming $field, with no request',
			async ({ filters, field, says }) => {
				const result = await run(sandbox, {
					resource: 'contact',
					operation: 'getAll',
					limit: 1,
					filters: filters as INodeParameters,
				});
				expect(result.error?.message).toContain(field);
				expect(result.error?.message).toContain(says);
				expect(await requests(sandbox)).toHaveLength(0);
			},
		);

		// n8n's query encoding turns a trailing lone surrogate into another character (🐀): the
		// filter would silently ask for another tag. Refused, naming the field; a whole emoji is sent.
		test('a filter holding half of an emoji is refused with no request; a whole emoji is sent', async () => {
			const half = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { tag: ['VIP\uD83D'] },
			});
			expect(half.error?.message).toContain('tag');
			expect(await requests(sandbox)).toHaveLength(0);
			const whole = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { tag: ['VIP\uD83D\uDE00'] },
			});
			expect(whole.error).toBeUndefined();
			const [entry] = await requests(sandbox);
			expect(entry.query.tag).toEqual('VIP\uD83D\uDE00');
		});

		test('null entries of a mapped list are blanks: dropped, the rest sent', async () => {
			const { error } = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { tag: ['VIP', null, ' '] },
			});
			expect(error).toBeUndefined();
			const [entry] = await requests(sandbox);
			expect(entry.query.tag).toEqual('VIP');
		});
	});

	const sortCases = getManyOperations.flatMap(({ resource, operation }) =>
		((ENDPOINTS[endpointOf(resource, operation)] as Endpoint).list?.sortFields ?? []).flatMap(
			(field) => [
				{ resource, operation, field, direction: 'asc', wire: field },
				{ resource, operation, field, direction: 'desc', wire: `-${field}` },
			],
		),
	);

	// Sort By and Direction make the query's `sort` in one pure step: every sortable field of every
	// list, both ways, is a row here; one row goes through the node to the wire.
	test.each(sortCases)(
		'$resource / $operation: sort $field $direction → sort=$wire',
		({ field, direction, wire }) => {
			expect(sortValue(field, direction)).toBe(wire);
		},
	);

	test('a sort chosen in the node reaches the wire as its sort value', async () => {
		const { resource, operation, field, direction, wire } = sortCases.find(
			(row) => row.direction === 'desc',
		)!;
		const { error } = await run(sandbox, {
			resource,
			operation,
			limit: 1,
			sort: field,
			sortDirection: direction,
		});
		expect(error).toBeUndefined();
		const [entry] = await requests(sandbox);
		expect(entry.query.sort).toBe(wire);
	});

	test('the default sort sends no sort parameter', async () => {
		await run(sandbox, {
			resource: 'inspection',
			operation: 'getAll',
			limit: 1,
			sortDirection: 'desc',
		});
		const [entry] = await requests(sandbox);
		expect(entry.query.sort).toBeUndefined();
	});

	describe('Return All and Limit', () => {
		test.each(getManyOperations)(
			'$resource / $operation: Return All makes exactly one request per server page, limit=200',
			async ({ resource, operation }) => {
				const expected = await allPages(sandbox, pathOf(resource, operation));
				await sandbox.control.clearRequests();
				const { items, error } = await run(sandbox, {
					resource,
					operation,
					...pathParamsOf(resource, operation),
					returnAll: true,
					simplify: false,
				} as INodeParameters);
				expect(error).toBeUndefined();
				const log = await requests(sandbox);
				expect(log).toHaveLength(expected.pages);
				expect(log.every((entry) => entry.query.limit === '200')).toBe(true);
				// Signed links differ per read, so records are compared by identity, in order.
				expect(items.map((item) => recordKey(item.json))).toEqual(expected.records.map(recordKey));
				expect(
					items.every((item) => JSON.stringify(item.pairedItem) === JSON.stringify({ item: 0 })),
				).toBe(true);
			},
		);

		test('short pages do not end the walk: still one request per server page', async () => {
			await sandbox.control.settings({ short_pages: 'always' });
			try {
				const expected = await allPages(sandbox, '/v1/contacts');
				expect(expected.pages).toBeGreaterThan(Math.ceil(expected.records.length / 200));
				await sandbox.control.clearRequests();
				const { items } = await run(sandbox, {
					resource: 'contact',
					operation: 'getAll',
					returnAll: true,
				});
				expect(await requests(sandbox)).toHaveLength(expected.pages);
				expect(items).toHaveLength(expected.records.length);
			} finally {
				await sandbox.control.settings({ short_pages: 'tail' });
			}
		});

		test('Limit 250 makes two requests, each asking for a full page, and cuts locally', async () => {
			const { items } = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 250,
			});
			expect(items).toHaveLength(250);
			expect((await requests(sandbox)).map((entry) => entry.query.limit)).toEqual(['200', '200']);
		});

		test('with short pages a Limit costs no more requests than Return All needs to reach the same record', async () => {
			await sandbox.control.settings({ short_pages: 'always' });
			try {
				const { records } = await allPages(sandbox, '/v1/contacts');
				const limit = 250;
				// Return All's pages, counted until the one holding record number `limit`.
				await sandbox.control.clearRequests();
				const { items: all } = await run(sandbox, {
					resource: 'contact',
					operation: 'getAll',
					returnAll: true,
				});
				expect(all).toHaveLength(records.length);
				const returnAllPages = (await requests(sandbox)).length;
				const pagesToReach = Math.ceil(limit / Math.ceil(200 / 2));
				expect(returnAllPages).toBeGreaterThan(pagesToReach);
				await sandbox.control.clearRequests();
				const { items } = await run(sandbox, { resource: 'contact', operation: 'getAll', limit });
				expect(items.map((item) => item.json.id)).toEqual(
					all.slice(0, limit).map((item) => item.json.id),
				);
				const log = await requests(sandbox);
				expect(log).toHaveLength(pagesToReach);
				expect(log.every((entry) => entry.query.limit === '200')).toBe(true);
			} finally {
				await sandbox.control.settings({ short_pages: 'tail' });
			}
		});

		test('a Limit below a page makes one request, for a full page', async () => {
			const { items } = await run(sandbox, {
				resource: 'inspection',
				operation: 'getAll',
				limit: 7,
			});
			expect(items).toHaveLength(7);
			expect((await requests(sandbox)).map((entry) => entry.query.limit)).toEqual(['200']);
		});

		test('a Limit below 1 (by expression) is an item error with no request', async () => {
			const result = await run(sandbox, {
				resource: 'tag',
				operation: 'getAll',
				limit: '={{ 0 }}',
			});
			expect(result.error?.message).toMatch(/Limit/);
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('each input item gets its own list, paired with it', async () => {
			const { items } = await run(
				sandbox,
				{ resource: 'agency', operation: 'getAll', limit: '={{ $json.take }}' },
				{ items: [{ json: { take: 2 } }, { json: { take: 3 } }] },
			);
			expect(items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 0 },
				{ item: 1 },
				{ item: 1 },
				{ item: 1 },
			]);
		});
	});

	describe('more IDs than one request may carry', () => {
		let contactIds: string[];
		beforeAll(async () => {
			contactIds = (await allPages(sandbox, '/v1/contacts')).records
				.slice(0, 450)
				.map((c) => String(c.id));
		});

		const idCounts = (log: Array<{ query: Record<string, string | string[]> }>, param: string) =>
			log.map((entry) => String(entry.query[param]).split(',').length);

		test('450 contact IDs with Return All: three requests of 200, 200 and 50 IDs', async () => {
			const { items } = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				returnAll: true,
				filters: { ids: contactIds.join(',') },
			});
			const log = await requests(sandbox);
			expect(idCounts(log, 'ids')).toEqual([200, 200, 50]);
			expect(new Set(items.map((item) => item.json.id))).toEqual(new Set(contactIds));
		});

		test('450 contact IDs with Limit 250: two requests for full pages; the third is never made', async () => {
			const { items } = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 250,
				filters: { ids: contactIds.join(',') },
			});
			const log = await requests(sandbox);
			expect(idCounts(log, 'ids')).toEqual([200, 200]);
			expect(log.map((entry) => entry.query.limit)).toEqual(['200', '200']);
			expect(items).toHaveLength(250);
		});

		test('450 IDs of which 440 are unique (repeats across the 200-ID boundary, some in upper case): each record once, in three requests of 200, 200 and 40 IDs', async () => {
			const unique = contactIds.slice(0, 440);
			const repeats = unique.slice(0, 10).map((id, i) => (i % 2 ? id.toUpperCase() : id));
			const { items, error } = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				returnAll: true,
				filters: { ids: [...unique, ...repeats].join(',') },
			});
			expect(error).toBeUndefined();
			expect(idCounts(await requests(sandbox), 'ids')).toEqual([200, 200, 40]);
			expect(items.map((item) => item.json.id).sort()).toEqual([...unique].sort());
		});

		test('contact stats take 450 contact_ids in three requests', async () => {
			const { items } = await run(sandbox, {
				resource: 'contactStats',
				operation: 'getAll',
				returnAll: true,
				filters: { contact_ids: contactIds },
			});
			expect(idCounts(await requests(sandbox), 'contact_ids')).toEqual([200, 200, 50]);
			expect(new Set(items.map((item) => item.json.contact_id))).toEqual(new Set(contactIds));
		});
	});

	describe('Simplify (inspections), version 1', () => {
		test('returns its 22 key fields flat, derived from the full record', async () => {
			const v1 = { typeVersion: 1 };
			const raw = await run(
				sandbox,
				{ resource: 'inspection', operation: 'getAll', limit: 20, simplify: false },
				v1,
			);
			const simple = await run(
				sandbox,
				{ resource: 'inspection', operation: 'getAll', limit: 20, simplify: true },
				v1,
			);
			expect(simple.items).toHaveLength(20);
			simple.items.forEach(({ json }, index) => {
				const full = raw.items[index].json as IDataObject & {
					address: IDataObject;
					price: IDataObject;
					reports: IDataObject;
					contacts: IDataObject[];
					inspectors: IDataObject[];
					services: IDataObject[];
				};
				expect(Object.keys(json)).toEqual([...SIMPLIFIED_INSPECTION_FIELDS]);
				const clients = full.contacts.filter((c) => c.role === 'Customer');
				const agents = full.contacts.filter(
					(c) => c.role === 'Buyer Agent' || c.role === 'Listing Agent',
				);
				const names = (people: IDataObject[]) =>
					people.map((p) => [p.first_name, p.last_name].filter(Boolean).join(' ')).join(', ') ||
					null;
				expect(json).toEqual({
					id: full.id,
					status: full.status,
					confirmed: full.confirmed,
					scheduled_for: full.scheduled_for,
					ends_at: full.ends_at,
					address_full: full.address.full,
					city: full.address.city,
					state: full.address.state,
					zip: full.address.zip,
					client_name: names(clients),
					client_email:
						clients
							.map((c) => c.email)
							.filter(Boolean)
							.join(', ') || null,
					agent_names: names(agents),
					inspector_names:
						full.inspectors
							.map((i) => i.name)
							.filter(Boolean)
							.join(', ') || null,
					services:
						full.services
							.map((s) => s.name)
							.filter(Boolean)
							.join(', ') || null,
					quote: full.price.quote,
					amount_paid: full.price.amount_paid,
					amount_due: full.price.amount_due,
					paid: full.price.paid,
					reports_status: full.reports.status,
					portal_url: full.portal_url,
					updated_at: full.updated_at,
					deleted: full.deleted,
				});
			});
		});
	});
}
