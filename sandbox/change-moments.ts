/**
 * The changes that make the polling trigger's business moments happen, as
 * someone in the business tools would: a payment (in full or in part),
 * signatures, an inspector assigned or removed, an add-on sold, a contact in a
 * new role, an inspection booked to start soon, and time passing (the sandbox
 * clock). Which trigger events each makes is written once, in the changes
 * table (changes.ts).
 */
import { ADD_ONS, INSPECTOR_NAMES } from './seed/words';
import {
	asInspection,
	confirmed,
	type ChangeInput,
	type ChangeResult,
	type Contact,
	type Inspection,
	type Sandbox,
} from './change-target';

const HOUR = 3_600_000;
const due = (inspection: Inspection) => inspection.price.amount_due ?? 0;
const hasDue = (inspection: Inspection) => confirmed(inspection) && due(inspection) > 0;
const where = (inspection: Inspection) => inspection.address.full ?? inspection.id;
/** Amounts to the cent, as a price shows them (the API has no currency field). */
const money = (amount: number) => (Math.round(amount * 100) / 100).toFixed(2);

async function pay(sandbox: Sandbox, input: ChangeInput, part: boolean): Promise<ChangeResult> {
	const target = await sandbox.inspection(
		hasDue,
		'a confirmed inspection with something due',
		input.id,
	);
	// Half of what is due, to the cent: something stays due, so the inspection is not paid.
	const amount = part ? Math.floor(due(target) * 50) / 100 : due(target);
	if (amount <= 0) throw new Error(`${target.id} has too little due to pay in part`);
	const inspection = asInspection(await sandbox.control.addPayment(target.id, amount));
	return {
		id: target.id,
		inspection,
		said: `Paid ${money(amount)} of the ${money(due(target))} due on inspection ${target.id} at ${where(target)}`,
	};
}

export const payInFull = (sandbox: Sandbox, input: ChangeInput) => pay(sandbox, input, false);
export const payInPart = (sandbox: Sandbox, input: ChangeInput) => pay(sandbox, input, true);

const allSigned = (inspection: Inspection) =>
	inspection.agreements.all_signed &&
	inspection.agreements.items.length > 0 &&
	inspection.agreements.items.every((item) => item.status === 'signed');

/** Signs every agreement; an inspection without one is sent the usual agreement first. */
export async function signAgreements(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(
		(inspection) => confirmed(inspection) && !allSigned(inspection),
		'a confirmed inspection with agreements left to sign',
		input.id,
	);
	const sent = target.agreements.items.length === 0;
	if (sent) await sandbox.control.addAgreements(target.id, ['Pre-Inspection Agreement']);
	const inspection = asInspection(await sandbox.control.signAgreements(target.id));
	const names = inspection.agreements.items.map((item) => item.name ?? 'an agreement').join(', ');
	return {
		id: target.id,
		inspection,
		said: `${sent ? 'Sent and signed' : 'Signed'} ${names} on inspection ${target.id} at ${where(target)}`,
	};
}

export async function assignInspector(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const staff = INSPECTOR_NAMES.map((name, n) => ({ id: `insp-acme-${n + 1}`, name }));
	const target = await sandbox.inspection(
		(inspection) => confirmed(inspection) && inspection.inspectors.length < staff.length,
		'a confirmed inspection with an inspector free to assign',
		input.id,
	);
	const inspector = staff.find((one) => !target.inspectors.some((on) => on.id === one.id))!;
	const inspection = asInspection(await sandbox.control.assignInspector(target.id, inspector));
	return {
		id: target.id,
		inspection,
		said: `Assigned ${inspector.name} to inspection ${target.id} at ${where(target)}`,
	};
}

export async function removeInspector(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const target = await sandbox.inspection(
		(inspection) => confirmed(inspection) && inspection.inspectors.length > 0,
		'a confirmed inspection with an inspector',
		input.id,
	);
	const inspector = target.inspectors[target.inspectors.length - 1];
	const inspection = asInspection(await sandbox.control.removeInspector(target.id, inspector.id));
	return {
		id: target.id,
		inspection,
		said: `Took ${inspector.name ?? inspector.id} off inspection ${target.id} at ${where(target)}`,
	};
}

/** Sells an add-on the inspection does not have yet; its price is added to the quote, and is due. */
export async function addService(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const offer = ADD_ONS.map((addOn, n) => ({ id: `addon-${n + 1}`, ...addOn }));
	const missing = (inspection: Inspection) =>
		offer.find((addOn) => !inspection.add_ons.some((on) => on.id === addOn.id));
	const target = await sandbox.inspection(
		(inspection) => confirmed(inspection) && missing(inspection) !== undefined,
		'a confirmed inspection without every add-on',
		input.id,
	);
	const addOn = missing(target)!;
	const inspection = asInspection(
		await sandbox.control.addService(target.id, {
			...addOn,
			kind: 'add_on',
		}),
	);
	return {
		id: target.id,
		inspection,
		said: `Added ${addOn.name} (${money(addOn.price)}) to inspection ${target.id} at ${where(target)}`,
	};
}

/** A past client comes back as a buyer's agent, on the most recently changed confirmed inspection. */
export async function giveNewRole(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const contact = await sandbox.contact(
		(one) => one.roles.includes('Customer') && !one.roles.includes('Buyer Agent'),
		'a past client who was never a buyer agent',
		input.id,
		'client',
	);
	const target = await sandbox.inspection(confirmed, 'a confirmed inspection');
	const inspection = asInspection(
		await sandbox.control.addContactToInspection(target.id, contact.id, 'Buyer Agent'),
	);
	const now = await sandbox.v1<{ data: Contact[] }>(`contacts?ids=${contact.id}`);
	const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
	return {
		id: contact.id,
		contact: now.data[0],
		inspection,
		said: `${name} (${contact.email}), a past client, is now the buyer agent on inspection ${target.id}`,
	};
}

/** Books an inspection that starts in an hour and lasts two, for a client with an email. */
async function scheduleSoon(
	sandbox: Sandbox,
	status: 'confirmed' | 'waiting',
): Promise<ChangeResult> {
	// The waiting one goes to the next client, so that the two booked together are told apart.
	let skip = status === 'waiting' ? 1 : 0;
	const client = await sandbox.contact(
		(one) => one.email !== '' && skip-- <= 0,
		'a client with an email',
		undefined,
		'client',
	);
	const now = Date.parse((await sandbox.control.getClock()).now);
	const start = new Date(Math.ceil((now + HOUR) / 60_000) * 60_000).toISOString();
	const inspection = asInspection(
		await sandbox.control.createInspection({
			org: 'acme',
			status,
			scheduled_for: start,
			duration_hours: 2,
			contacts: [{ id: client.id, role: 'Customer' }],
		}),
	);
	const name = [client.first_name, client.last_name].filter(Boolean).join(' ');
	return {
		id: inspection.id,
		inspection,
		said: `Booked inspection ${inspection.id} (${status}) for ${name}, from ${start} for 2 hours`,
	};
}

export const scheduleSoonConfirmed = (sandbox: Sandbox) => scheduleSoon(sandbox, 'confirmed');
export const scheduleSoonWaiting = (sandbox: Sandbox) => scheduleSoon(sandbox, 'waiting');

const UNIT_MS = { m: 60_000, h: HOUR, d: 24 * HOUR } as const;

/** `52h`, `90m` or `3d`: how far to move the clock (read without a pattern: no backtracking). */
export function readDuration(text = ''): number {
	const unit = text.slice(-1);
	const count = Number(text.slice(0, -1));
	if (!Object.hasOwn(UNIT_MS, unit) || !Number.isInteger(count) || count < 1 || count > 9999)
		throw new Error(
			'clock needs how far to move it, such as 28h, 52h, 90m or 3d (minutes, hours, days)',
		);
	return count * UNIT_MS[unit as keyof typeof UNIT_MS];
}

/** Moves the sandbox's clock forward; the API's time, and so the trigger's time moments, follow it. */
export async function advanceClock(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult> {
	const ms = readDuration(input.args[0]);
	const clock = await sandbox.control.advanceClock(ms);
	const ahead = Math.round(clock.offset_ms / 60_000);
	const hours = Math.floor(ahead / 60);
	return {
		said: `Moved the sandbox's clock ${input.args[0]} forward: it reads ${clock.now}, ${hours} h ${ahead % 60} min ahead of real time`,
	};
}
