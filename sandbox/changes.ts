/**
 * `npm run sandbox -- <change>`: makes one change in a running sandbox, as
 * someone working in the business tools would, so a demo user can see a
 * trigger fire without looking up ids. Each change picks a fitting record of
 * Acme (the demo credential's organization) through the v1 API, acts on it
 * through the control API and says what it did. Changes that the account
 * sends webhooks for reach every registered receiver (`webhook <url>`).
 */
import { SandboxControl } from './client';
import { SANDBOX_KEYS } from './keys';

type Json = Record<string, unknown>;
interface Inspection {
	id: string;
	status: string;
	deleted?: boolean;
	sample?: boolean;
	scheduled_for: string | null;
	address: { full: string | null };
	reports: { status: string };
}
interface Contact {
	id: string;
	first_name: string;
	last_name: string | null;
	email: string;
}

/** What a change reports: the sentence to print and the record it touched. */
export interface ChangeResult {
	said: string;
	id: string;
}

interface Change {
	/** What it does, and which trigger events and webhook it makes (the CLI's help). */
	help: string;
	run(sandbox: Sandbox): Promise<ChangeResult>;
}

/** The v1 API with the Acme owner's key, and the control API, of one running sandbox. */
class Sandbox {
	readonly control: SandboxControl;

	constructor(readonly baseUrl: string) {
		this.control = new SandboxControl(baseUrl);
	}

	async v1<T>(path: string, init: RequestInit = {}): Promise<T> {
		const answer = await fetch(`${this.baseUrl}/v1/${path}`, {
			...init,
			headers: { Authorization: `Bearer ${SANDBOX_KEYS.acmeOwner}`, ...init.headers },
		});
		const body = (await answer.json()) as T;
		if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(body)}`);
		return body;
	}

	/** The first inspection, most recently changed first, that `fits`. */
	async inspection(fits: (inspection: Inspection) => boolean, what: string): Promise<Inspection> {
		let cursor: string | null = null;
		do {
			const query = new URLSearchParams({ limit: '200', sort: '-updated_at' });
			if (cursor) query.set('cursor', cursor);
			const page: { data: Inspection[]; next_cursor: string | null } = await this.v1(
				`inspections?${query}`,
			);
			const found = page.data.find((inspection) => !inspection.sample && fits(inspection));
			if (found) return found;
			cursor = page.next_cursor;
		} while (cursor);
		throw new Error(`Acme has no ${what} left; npm run sandbox -- reset starts again`);
	}

	async contact(): Promise<Contact> {
		const page = await this.v1<{ data: Contact[] }>('contacts?limit=1&sort=-updated_at');
		return page.data[0];
	}
}

const where = (inspection: Inspection) => inspection.address.full ?? inspection.id;
const confirmed = (inspection: Inspection) => inspection.status === 'confirmed';
const DAY = 24 * 3_600_000;

export const CHANGES: Record<string, Change> = {
	confirm: {
		help: 'confirms an inspection that was not confirmed (Inspection Confirmed; webhook inspection.confirmed)',
		async run(sandbox) {
			const target = await sandbox.inspection(
				(inspection) => ['draft', 'waiting', 'review'].includes(inspection.status),
				'unconfirmed inspection',
			);
			await sandbox.control.confirmInspection(target.id);
			return { id: target.id, said: `Confirmed inspection ${target.id} at ${where(target)}` };
		},
	},
	reschedule: {
		help: 'moves a confirmed inspection one day later (Inspection Rescheduled; webhook inspection.rescheduled)',
		async run(sandbox) {
			const target = await sandbox.inspection(
				(inspection) => confirmed(inspection) && inspection.scheduled_for !== null,
				'scheduled confirmed inspection',
			);
			const later = new Date(Date.parse(String(target.scheduled_for)) + DAY).toISOString();
			await sandbox.control.rescheduleInspection(target.id, later);
			return {
				id: target.id,
				said: `Moved inspection ${target.id} at ${where(target)} to ${later}`,
			};
		},
	},
	cancel: {
		help: 'cancels a confirmed inspection (Inspection Canceled; webhook inspection.canceled)',
		async run(sandbox) {
			const target = await sandbox.inspection(confirmed, 'confirmed inspection');
			await sandbox.control.cancelInspection(target.id);
			return { id: target.id, said: `Canceled inspection ${target.id} at ${where(target)}` };
		},
	},
	publish: {
		help: "publishes a confirmed inspection's reports (Inspection Report Published; webhook inspection.published)",
		async run(sandbox) {
			const target = await sandbox.inspection(
				(inspection) => confirmed(inspection) && inspection.reports.status !== 'published',
				'confirmed inspection with unpublished reports',
			);
			await sandbox.control.publishReports(target.id);
			return {
				id: target.id,
				said: `Published the reports of inspection ${target.id} at ${where(target)}`,
			};
		},
	},
	'new-inspection': {
		help: 'books a new inspection for tomorrow (Inspection Created; no webhook)',
		async run(sandbox) {
			const tomorrow = new Date(Date.now() + DAY).toISOString();
			const created = (await sandbox.control.createInspection({
				org: 'acme',
				status: 'waiting',
				scheduled_for: tomorrow,
			})) as Json & { id: string };
			return { id: created.id, said: `Booked inspection ${created.id} for ${tomorrow}` };
		},
	},
	appointment: {
		help: 'adds an appointment to a confirmed inspection (Inspection Event Created; no webhook)',
		async run(sandbox) {
			const target = await sandbox.inspection(confirmed, 'confirmed inspection');
			const start = new Date(Date.now() + DAY);
			const event = await sandbox.control.createEvent({
				inspection_id: target.id,
				name: 'Key pick-up',
				start_at: start.toISOString(),
				duration_hours: 1,
			});
			return { id: event.id, said: `Added appointment ${event.id} to inspection ${target.id}` };
		},
	},
	contact: {
		help: 'changes the phone number of the most recently changed contact (Contact Updated; webhook contact.changed)',
		async run(sandbox) {
			const target = await sandbox.contact();
			const phone = `555-01${String(Date.now() % 100).padStart(2, '0')}`;
			await sandbox.control.updateContact(target.id, { phone });
			return {
				id: target.id,
				said: `Set the phone of contact ${target.id} (${target.email}) to ${phone}`,
			};
		},
	},
	'new-contact': {
		help: 'adds a contact (Contact Created; webhook contact.changed)',
		async run(sandbox) {
			const email = `new.client.${Date.now()}@example.com`;
			const created = (await sandbox.control.createContact('acme', {
				first_name: 'New',
				last_name: 'Client',
				email,
			})) as Json & { id: string };
			return { id: created.id, said: `Added contact ${created.id} (${email})` };
		},
	},
	attachment: {
		help: 'adds a document to a confirmed inspection through the API (Attachment Added; no webhook)',
		async run(sandbox) {
			const target = await sandbox.inspection(confirmed, 'confirmed inspection');
			const form = new FormData();
			form.set('kind', 'document');
			form.set('file', new Blob(['Sandbox document\n'], { type: 'text/plain' }), 'note.txt');
			const added = await sandbox.v1<Json & { id: string }>(
				`inspections/${target.id}/attachments`,
				{ method: 'POST', body: form },
			);
			return { id: added.id, said: `Added document ${added.id} to inspection ${target.id}` };
		},
	},
};

/** Runs one named change against the sandbox at `baseUrl`. */
export async function makeChange(baseUrl: string, name: string): Promise<ChangeResult> {
	const change = Object.hasOwn(CHANGES, name) ? CHANGES[name] : undefined;
	if (!change) throw new Error(`Unknown change "${name}"`);
	return await change.run(new Sandbox(baseUrl));
}
