/**
 * Control routes that make each business moment of the polling trigger
 * happen, as the business tools would: a payment (partial or in full) and a
 * refund, agreements to sign and their signatures, reports added and
 * published one at a time, inspectors assigned and removed, services and
 * add-ons added and removed, a new quote (or none), and a contact put on an
 * inspection in a role. Each bumps the inspection's updated_at (the clock
 * routes and reschedule set the time). They sit before the generic action
 * route of control.ts, which would take `inspections/{id}/{word}` for itself.
 */
import { randomUUID } from 'node:crypto';

import { CONTACT_ROLES } from '../nodes/shared/endpoints';
import { existing } from './actions';
import type { ControlRoute } from './control-route';
import { badRequest, notFound, ok } from './http';
import { renderInspection } from './inspections';
import type { SandboxState } from './state';
import type { InspectionRec } from './types';

type Body = Record<string, unknown>;

const text = (body: Body, name: string): string => {
	const value = body[name];
	if (typeof value !== 'string' || value === '') throw badRequest(name, `${name} must be a string`);
	return value;
};

const amount = (body: Body, name: string): number => {
	const value = body[name];
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
		throw badRequest(name, `${name} must be a number of at least 0`);
	return value;
};

/** Sets what is paid and what the payment fields show: "partial" while something is due. */
function settlePrice(rec: InspectionRec): void {
	const quote = rec.price.quote ?? 0;
	const paid = rec.price.amount_paid ?? 0;
	rec.price.amount_due = Math.max(0, quote - paid);
	rec.price.paid = paid > 0 && rec.price.amount_due === 0;
	rec.price.payment_status = rec.price.paid ? 'paid' : paid > 0 ? 'partial' : 'unpaid';
}

function touch(state: SandboxState, rec: InspectionRec): void {
	rec.updatedAt = state.writeTime(rec.updatedAt);
	state.store.changed();
}

/** Runs `change` on the inspection, bumps it and answers it as the API renders it. */
const onInspection =
	(change: (rec: InspectionRec, body: Body, params: string[], state: SandboxState) => void) =>
	({ state, body, params, render }: Parameters<ControlRoute[2]>[0]) => {
		const rec = existing(state, params[0]);
		change(rec, body, params.slice(1), state);
		touch(state, rec);
		return ok(renderInspection(render, rec));
	};

/** The statuses a report item is set to here; the API lists them as text (api-v1.md: reports.items). */
const REPORT_STATUSES = ['draft', 'pending', 'published'];

/** The reports' aggregate status follows the items: all published, some (partial), or none yet. */
function settleReports(rec: InspectionRec): void {
	const published = rec.reports.items.filter((item) => item.status === 'published').length;
	rec.reports.status =
		published === 0 ? 'pending' : published === rec.reports.items.length ? 'published' : 'partial';
}

const signItem = (item: InspectionRec['agreements']['items'][number], at: string) => {
	item.status = 'signed';
	item.signed_at = at;
};

export const CONTROL_MOMENT_ROUTES: ControlRoute[] = [
	[
		'POST',
		/^inspections\/([^/]+)\/payment$/,
		onInspection((rec, body) => {
			rec.price.amount_paid = (rec.price.amount_paid ?? 0) + amount(body, 'amount');
			settlePrice(rec);
		}),
	],
	[
		'POST',
		/^inspections\/([^/]+)\/refund$/,
		onInspection((rec, body) => {
			const refund = amount(body, 'amount');
			if (refund > (rec.price.amount_paid ?? 0))
				throw badRequest('amount', 'amount must be at most what was paid');
			rec.price.amount_paid = (rec.price.amount_paid ?? 0) - refund;
			settlePrice(rec);
		}),
	],
	[
		'PATCH',
		/^inspections\/([^/]+)\/price$/,
		onInspection((rec, body) => {
			// A quote of null (the API types it "number or null") leaves what is paid and due as it was.
			if (body.quote === null) rec.price.quote = null;
			else {
				rec.price.quote = amount(body, 'quote');
				settlePrice(rec);
			}
		}),
	],
	[
		'POST',
		/^inspections\/([^/]+)\/reports$/,
		onInspection((rec, body) => {
			rec.reports.items.push({
				id: `rpt-${randomUUID().slice(0, 8)}`,
				name: text(body, 'name'),
				status: 'pending',
			});
			settleReports(rec);
		}),
	],
	[
		'PATCH',
		/^inspections\/([^/]+)\/reports\/([^/]+)$/,
		onInspection((rec, body, [reportId]) => {
			const item = rec.reports.items.find((report) => report.id === reportId);
			if (!item) throw notFound('report', reportId, null);
			const status = text(body, 'status');
			if (!REPORT_STATUSES.includes(status))
				throw badRequest('status', `status must be one of ${REPORT_STATUSES.join(', ')}`);
			item.status = status;
			settleReports(rec);
		}),
	],
	[
		'POST',
		/^inspections\/([^/]+)\/agreements$/,
		onInspection((rec, body) => {
			const names = body.names;
			if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string'))
				throw badRequest('names', 'names must be a non-empty list of strings');
			rec.agreements.items.push(
				...names.map((name: string) => ({ name, status: 'sent', signed_at: null })),
			);
			rec.agreements.present = true;
			rec.agreements.all_signed = false;
		}),
	],
	[
		'POST',
		/^inspections\/([^/]+)\/sign$/,
		onInspection((rec, body, _params, state) => {
			const { items } = rec.agreements;
			const at = new Date(state.clock.now()).toISOString();
			if (body.index === undefined) items.forEach((item) => signItem(item, at));
			else {
				const item = typeof body.index === 'number' ? items[body.index] : undefined;
				if (!item) throw badRequest('index', 'index must point at one of the agreements');
				signItem(item, at);
			}
			rec.agreements.all_signed = items.length > 0 && items.every((i) => i.status === 'signed');
		}),
	],
	[
		'POST',
		/^inspections\/([^/]+)\/inspectors$/,
		onInspection((rec, body) => {
			const id = text(body, 'id');
			if (!rec.inspectors.some((i) => i.id === id))
				rec.inspectors.push({ id, name: typeof body.name === 'string' ? body.name : null });
		}),
	],
	[
		'DELETE',
		/^inspections\/([^/]+)\/inspectors\/([^/]+)$/,
		onInspection((rec, _body, [id]) => {
			const at = rec.inspectors.findIndex((i) => i.id === id);
			if (at === -1) throw notFound('inspector', id, null);
			rec.inspectors.splice(at, 1);
		}),
	],
	[
		'POST',
		/^inspections\/([^/]+)\/services$/,
		onInspection((rec, body) => {
			const id = text(body, 'id');
			const name = typeof body.name === 'string' ? body.name : null;
			if (body.kind === 'add_on') {
				rec.add_ons.push({ id, name, quantity: 1 });
			} else if (body.kind === undefined || body.kind === 'service') {
				rec.services.push({ id, name });
			} else throw badRequest('kind', 'kind must be service or add_on');
			if (body.price !== undefined) {
				rec.price.quote = (rec.price.quote ?? 0) + amount(body, 'price');
				settlePrice(rec);
			}
		}),
	],
	[
		'DELETE',
		/^inspections\/([^/]+)\/services\/([^/]+)$/,
		onInspection((rec, _body, [id]) => {
			const before = rec.services.length + rec.add_ons.length;
			rec.services = rec.services.filter((s) => s.id !== id);
			rec.add_ons = rec.add_ons.filter((a) => a.id !== id);
			if (rec.services.length + rec.add_ons.length === before)
				throw notFound('service or add-on', id, null);
		}),
	],
	[
		'POST',
		/^inspections\/([^/]+)\/contacts$/,
		({ state, body, params: [inspectionId], render }) => {
			const rec = existing(state, inspectionId);
			const contact = state.store.find(state.store.contacts, rec.org, text(body, 'contact_id'));
			if (!contact) throw notFound('contact', String(body.contact_id), 'contact_id');
			const role = text(body, 'role');
			if (!CONTACT_ROLES.includes(role as (typeof CONTACT_ROLES)[number]))
				throw badRequest('role', `role must be one of ${CONTACT_ROLES.join(', ')}`);
			rec.contacts.push({ id: contact.id, role });
			touch(state, rec);
			// The contact's roles changed: it is listed as changed, as `updated_since` must show it.
			contact.updatedAt = state.writeTime(contact.updatedAt);
			state.store.changed();
			return ok(renderInspection(render, rec));
		},
	],
];
