/**
 * The changes to inspections, appointments, contacts and attachments that the
 * polling trigger reports as record changes (confirmed, rescheduled, a contact
 * updated…), as someone in the business tools would make them. Which trigger
 * events each makes is written once, in the changes table (changes.ts).
 */
import {
	asInspection,
	confirmed,
	type ChangeInput,
	type ChangeResult,
	type Inspection,
	type Sandbox,
} from './change-target';

type Json = Record<string, unknown>;
const DAY = 24 * 3_600_000;
const where = (inspection: Inspection) => inspection.address.full ?? inspection.id;

export async function confirm(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(
		(inspection) => ['draft', 'waiting', 'review'].includes(inspection.status),
		'an unconfirmed inspection',
		input.id,
	);
	const inspection = asInspection(await sandbox.control.confirmInspection(target.id));
	return {
		id: target.id,
		inspection,
		said: `Confirmed inspection ${target.id} at ${where(target)}`,
	};
}

export async function reschedule(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(
		(inspection) => confirmed(inspection) && inspection.scheduled_for !== null,
		'a scheduled confirmed inspection',
		input.id,
	);
	const later = new Date(Date.parse(String(target.scheduled_for)) + DAY).toISOString();
	const inspection = asInspection(await sandbox.control.rescheduleInspection(target.id, later));
	return {
		id: target.id,
		inspection,
		said: `Moved inspection ${target.id} at ${where(target)} to ${later}`,
	};
}

export async function cancel(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(confirmed, 'a confirmed inspection', input.id);
	const inspection = asInspection(await sandbox.control.cancelInspection(target.id));
	return {
		id: target.id,
		inspection,
		said: `Canceled inspection ${target.id} at ${where(target)}`,
	};
}

export async function publish(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(
		(inspection) => confirmed(inspection) && inspection.reports.status !== 'published',
		'a confirmed inspection with unpublished reports',
		input.id,
	);
	const inspection = asInspection(await sandbox.control.publishReports(target.id));
	return {
		id: target.id,
		inspection,
		said: `Published the reports of inspection ${target.id} at ${where(target)}`,
	};
}

export async function newInspection(sandbox: Sandbox): Promise<ChangeResult> {
	const tomorrow = new Date(Date.now() + DAY).toISOString();
	const inspection = asInspection(
		await sandbox.control.createInspection({
			org: 'acme',
			status: 'waiting',
			scheduled_for: tomorrow,
		}),
	);
	return {
		id: inspection.id,
		inspection,
		said: `Booked inspection ${inspection.id} for ${tomorrow}`,
	};
}

export async function appointment(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(confirmed, 'a confirmed inspection', input.id);
	const event = await sandbox.control.createEvent({
		inspection_id: target.id,
		name: 'Key pick-up',
		start_at: new Date(Date.now() + DAY).toISOString(),
		duration_hours: 1,
	});
	return {
		id: event.id,
		said: `Added the appointment "Key pick-up" (${event.id}) to inspection ${target.id} at ${where(target)}, tomorrow`,
	};
}

export async function contactPhone(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.contact(() => true, 'a contact', input.id);
	const phone = `555-01${String(Date.now() % 100).padStart(2, '0')}`;
	await sandbox.control.updateContact(target.id, { phone });
	return {
		id: target.id,
		said: `Set the phone of contact ${target.id} (${target.email}) to ${phone}`,
	};
}

export async function newContact(sandbox: Sandbox): Promise<ChangeResult> {
	const email = `new.client.${Date.now()}@example.com`;
	const created = (await sandbox.control.createContact('acme', {
		first_name: 'New',
		last_name: 'Client',
		email,
	})) as Json & { id: string };
	return { id: created.id, said: `Added contact ${created.id} (${email})` };
}

export async function attachment(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(confirmed, 'a confirmed inspection', input.id);
	const form = new FormData();
	form.set('kind', 'document');
	form.set('file', new Blob(['Sandbox document\n'], { type: 'text/plain' }), 'note.txt');
	const added = await sandbox.v1<Json & { id: string }>(`inspections/${target.id}/attachments`, {
		method: 'POST',
		body: form,
	});
	return { id: added.id, said: `Added document ${added.id} to inspection ${target.id}` };
}
