/**
 * Version 2's reads: Count (the list's `total`, from one request; what it sends
 * is a row of the request table),
 * Contact → Get by Email, Get for inspection events, attachments and contact
 * statistics, and Simplify (at most 10 key fields, plus Fields).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	CONTACT_KEY_FIELDS,
	INSPECTION_KEY_FIELDS,
} from '../../nodes/InspectionBusiness/helpers/simplifiedRecords';
import { withSandbox } from '../helpers/n8n';
import { allPages, api, errorText, requests, run } from './support';
import { allAgreementsSigned, isPaid } from '../../nodes/shared/inspectionFacts';

export function reads(): void {
	const sandbox = withSandbox();

	type Page = { data: IDataObject[]; total: number };

	describe('Count', () => {
		test('the count is the total of the list with the same filters, from one request', async () => {
			const expected = (await allPages(sandbox, '/v1/contacts', { role: 'agent' })).records.length;
			await sandbox.control.clearRequests();
			const { items, error } = await run(sandbox, {
				resource: 'contact',
				operation: 'count',
				filters: { role: 'agent' },
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual([{ count: expected }]);
			expect(await requests(sandbox)).toHaveLength(1);
		});

		test('one count per input item, paired, each with its own filters', async () => {
			const { items } = await run(
				sandbox,
				{ resource: 'contact', operation: 'count', filters: { role: '={{ $json.role }}' } },
				{ items: [{ json: { role: 'client' } }, { json: { role: 'agent' } }] },
			);
			const clients = await api<Page>(sandbox, '/v1/contacts', { role: 'client', limit: '1' });
			const agents = await api<Page>(sandbox, '/v1/contacts', { role: 'agent', limit: '1' });
			expect(items.map((i) => [i.json.count, i.pairedItem])).toEqual([
				[clients.total, { item: 0 }],
				[agents.total, { item: 1 }],
			]);
		});
	});

	describe('Contact → Get by Email', () => {
		test('finds the contact whatever the case, simplified by default', async () => {
			const contact = (await api<Page>(sandbox, '/v1/contacts', { limit: '1' })).data[0];
			await sandbox.control.clearRequests();
			const { items, error } = await run(sandbox, {
				resource: 'contact',
				operation: 'getByEmail',
				email: String(contact.email).toUpperCase(),
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.id)).toEqual([contact.id]);
			expect(Object.keys(items[0].json)).toEqual([...CONTACT_KEY_FIELDS]);
			const log = await requests(sandbox);
			expect(log).toHaveLength(1);
			expect(log[0].query.email).toBe(String(contact.email).toUpperCase());
		});

		test('no contact with the address is a clear item-level not found', async () => {
			const result = await run(
				sandbox,
				{ resource: 'contact', operation: 'getByEmail', email: '={{ $json.email }}' },
				{ items: [{ json: { email: 'nobody@nowhere.example' } }], continueOnFail: true },
			);
			expect(result.items[0].json.error).toBe('No contact with email nobody@nowhere.example');
			expect(String(result.items[0].json.description)).toContain('matched exactly, ignoring case');
		});
	});

	describe('Get', () => {
		test('inspection events by ID, batched', async () => {
			const events = (await api<Page>(sandbox, '/v1/events', { limit: '3' })).data;
			await sandbox.control.clearRequests();
			const { items } = await run(
				sandbox,
				{ resource: 'inspectionEvent', operation: 'get', id: '={{ $json.id }}' },
				{ items: events.map((e) => ({ json: { id: e.id } })) },
			);
			expect(items.map((i) => i.json)).toEqual(events);
			const log = await requests(sandbox);
			expect(log).toHaveLength(1);
			expect(String(log[0].query.ids).split(',')).toHaveLength(3);
		});

		test('an attachment by inspection and attachment ID; one listing per inspection', async () => {
			const attachment = (await api<Page>(sandbox, '/v1/attachments', { limit: '1' })).data[0];
			const inspectionId = String(attachment.inspection_id);
			await sandbox.control.clearRequests();
			const { items } = await run(
				sandbox,
				{
					resource: 'attachment',
					operation: 'get',
					inspection_id: inspectionId,
					attachment_id: '={{ $json.id }}',
				},
				{ items: [{ json: { id: attachment.id } }, { json: { id: '999' } }], continueOnFail: true },
			);
			expect(items[0].json).toMatchObject({ id: attachment.id, inspection_id: inspectionId });
			expect(items[1].json.error).toBe(`Attachment 999 not found on inspection ${inspectionId}`);
			expect(await requests(sandbox, { pathPrefix: '/v1' })).toHaveLength(1);
			// The listing is the execution's own: the next execution reads the inspection afresh.
			const again = await run(sandbox, {
				resource: 'attachment',
				operation: 'get',
				inspection_id: inspectionId,
				attachment_id: String(attachment.id),
			});
			expect(again.items[0].json).toMatchObject({ id: attachment.id });
			expect(await requests(sandbox, { pathPrefix: '/v1' })).toHaveLength(2);
		});

		test('contact statistics of chosen contacts, with the window', async () => {
			const contacts = (await api<Page>(sandbox, '/v1/contacts', { limit: '2' })).data;
			const ids = contacts.map((c) => String(c.id));
			await sandbox.control.clearRequests();
			const { items } = await run(
				sandbox,
				{
					resource: 'contactStats',
					operation: 'get',
					id: '={{ $json.id }}',
					options: { from: '2020-01-01T00:00:00Z' },
				},
				{ items: ids.map((id) => ({ json: { id } })) },
			);
			expect(items.map((i) => i.json.contact_id)).toEqual(ids);
			const log = await requests(sandbox);
			expect(log).toHaveLength(1);
			expect(log[0].query).toMatchObject({ contact_ids: ids.join(','), from: expect.any(String) });
		});
	});

	describe('Simplify, version 2', () => {
		test('an inspection: the 10 key fields version 2 shipped with, plus paid, agreements signed, inspectors and custom fields', async () => {
			// The seed has inspections with custom fields, several inspectors and signed agreements.
			const { items } = await run(sandbox, {
				resource: 'inspection',
				operation: 'getAll',
				limit: 20,
				simplify: false,
			});
			const simple = await run(sandbox, { resource: 'inspection', operation: 'getAll', limit: 20 });
			expect(INSPECTION_KEY_FIELDS.length).toBe(14);
			simple.items.forEach(({ json }, index) => {
				const full = items[index].json as IDataObject & {
					address: IDataObject;
					price: IDataObject;
					contacts: IDataObject[];
					inspectors: IDataObject[];
					agreements: IDataObject;
					custom_fields: IDataObject[];
				};
				const names = (role: (r: unknown) => boolean) =>
					full.contacts
						.filter((c) => role(c.role))
						.map((c) => [c.first_name, c.last_name].filter(Boolean).join(' '))
						.join(', ') || null;
				const clientEmails = full.contacts
					.filter((c) => c.role === 'Customer')
					.map((c) => c.email)
					.filter(Boolean)
					.join(', ');
				expect(json).toEqual({
					id: full.id,
					status: full.status,
					scheduled_for: full.scheduled_for,
					address: full.address.full,
					client: { name: names((r) => r === 'Customer'), email: clientEmails || null },
					agents: names((r) => r === 'Buyer Agent' || r === 'Listing Agent'),
					// Version 2's first ten, unchanged: workflows read them.
					amount: full.price.quote,
					amount_due: full.price.amount_due,
					payment_status: full.price.payment_status,
					portal_url: full.portal_url,
					paid: isPaid(full),
					agreements_signed: allAgreementsSigned(full),
					inspectors: full.inspectors.map((i) => i.name).join(', ') || null,
					custom_fields: Object.fromEntries(full.custom_fields.map((f) => [f.name, f.value])),
				});
			});
		});

		test('a contact: 10 key fields; Fields adds more from the full record', async () => {
			const contact = (await allPages(sandbox, '/v1/contacts')).records.find(
				(c) => (c.tags as IDataObject[]).length > 1 && c.city,
			) as IDataObject;
			const { items } = await run(sandbox, {
				resource: 'contact',
				operation: 'get',
				id: String(contact.id),
				fields: ['created_at', 'roles'],
			});
			expect(CONTACT_KEY_FIELDS.length).toBeLessThanOrEqual(10);
			expect(items[0].json).toMatchObject({
				id: contact.id,
				email: contact.email,
				tags: (contact.tags as IDataObject[]).map((t) => t.name).join(', '),
				created_at: contact.created_at,
				roles: contact.roles,
			});
			expect(String(items[0].json.address)).toContain(String(contact.city));
			expect(Object.keys(items[0].json)).toEqual([...CONTACT_KEY_FIELDS, 'created_at', 'roles']);
		});

		test('with Simplify off, the full record', async () => {
			const contact = (await api<Page>(sandbox, '/v1/contacts', { limit: '1' })).data[0];
			const { items } = await run(sandbox, {
				resource: 'contact',
				operation: 'get',
				id: String(contact.id),
				simplify: false,
			});
			expect(items[0].json).toEqual(contact);
		});

		test('an empty email is refused, naming the field', async () => {
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'getByEmail',
				email: ' ',
			});
			expect(errorText(result)).toContain('Email: no address to look up');
		});
	});
}
