/**
 * `npm run sandbox -- <change>`: makes one change in a running sandbox, as
 * someone working in the business tools would, so a demo user can see a
 * trigger fire without looking up ids. Each change acts on a fitting record of
 * Acme (the demo credential's organization) or the one named with `--id`, and
 * says what it did, shows the record, and which trigger events to expect.
 *
 * This table is the one place that says which polling-trigger events each
 * change makes (by the trigger's event values) and which webhook the account
 * sends for it; the CLI's help, its output and the tests read it.
 */
import {
	addService,
	advanceClock,
	assignInspector,
	giveNewRole,
	payInFull,
	payInPart,
	removeInspector,
	scheduleSoonConfirmed,
	scheduleSoonWaiting,
	signAgreements,
} from './change-moments';
import {
	appointment,
	attachment,
	cancel,
	confirm,
	contactPhone,
	newContact,
	newInspection,
	publish,
	reschedule,
} from './change-records';
import { Sandbox, type ChangeInput, type ChangeResult } from './change-target';
import type { WebhookEvent } from './webhooks';
import { EVENT_ROWS, type PollEvent } from '../nodes/InspectionBusinessTrigger/catalog';

export type { ChangeResult } from './change-target';

/**
 * The label the editor shows for each of the polling trigger's events, by
 * value: the event catalog's (the one place an event is defined).
 */
export const TRIGGER_EVENT_LABELS = Object.fromEntries(
	EVENT_ROWS.map((row) => [row.value, row.label]),
) as Record<PollEvent, string>;
export type TriggerEvent = PollEvent;

/** An event the change always makes, or [event, when it comes] for one that depends on the record. */
export type Expected = TriggerEvent | [TriggerEvent, string];

export interface Change {
	/** What it does, in the business's words (the CLI's help). */
	help: string;
	/** What it takes after its name, for the help: `[--id <inspection>]`, `<how far>`. */
	takes?: string;
	/** The polling trigger's events it makes, on the trigger's next poll. */
	events: Expected[];
	/** The webhook the account sends for it, if any. */
	webhook?: WebhookEvent;
	run(sandbox: Sandbox, input: ChangeInput): Promise<ChangeResult>;
}

const ID = '[--id <inspection>]';
const IF_PAID = 'if it is fully paid too';
const IF_SIGNED = 'if every agreement is signed too (or it has none to sign)';
const ONCE = 'the first time for this inspection (again only with Only Trigger Once off)';
const HOURS_BEFORE = 'the hours you choose before the start (24 by default)';
const HOURS_AFTER = 'the hours you choose after the end (24 by default)';
const CONFIRMED_ONLY =
	'not by default: the trigger reports it for confirmed inspections only, unless you add other statuses';

export const CHANGES: Record<string, Change> = {
	confirm: {
		help: 'confirms an inspection that was not confirmed',
		takes: ID,
		events: ['inspection.confirmed', 'inspection.updated'],
		webhook: 'inspection.confirmed',
		run: confirm,
	},
	reschedule: {
		help: 'moves a confirmed inspection one day later',
		takes: ID,
		events: ['inspection.rescheduled', 'inspection.updated'],
		webhook: 'inspection.rescheduled',
		run: reschedule,
	},
	cancel: {
		help: 'cancels a confirmed inspection',
		takes: ID,
		events: ['inspection.canceled', 'inspection.updated'],
		webhook: 'inspection.canceled',
		run: cancel,
	},
	publish: {
		help: "publishes a confirmed inspection's report",
		takes: ID,
		events: [
			['inspection.published', ONCE],
			['inspection.paid_signed_published', `${IF_PAID} and every agreement is signed; ${ONCE}`],
			'inspection.updated',
		],
		webhook: 'inspection.published',
		run: publish,
	},
	pay: {
		help: 'pays in full what is due on a confirmed inspection',
		takes: ID,
		events: [
			['inspection.paid', ONCE],
			['inspection.paid_and_signed', `${IF_SIGNED}; ${ONCE}`],
			['inspection.paid_signed_published', `${IF_SIGNED} and the report is published; ${ONCE}`],
			'inspection.payment_received',
			'inspection.updated',
		],
		run: payInFull,
	},
	'pay-part': {
		help: 'pays half of what is due on a confirmed inspection (still not paid)',
		takes: ID,
		events: ['inspection.payment_received', 'inspection.updated'],
		run: payInPart,
	},
	sign: {
		help: 'signs every agreement of a confirmed inspection (sends one first if it has none)',
		takes: ID,
		events: [
			'inspection.agreements_signed',
			['inspection.paid_and_signed', IF_PAID],
			['inspection.paid_signed_published', `${IF_PAID} and the report is published`],
			'inspection.updated',
		],
		run: signAgreements,
	},
	'assign-inspector': {
		help: 'assigns one more inspector to a confirmed inspection',
		takes: ID,
		events: ['inspection.inspector_assigned', 'inspection.updated'],
		run: assignInspector,
	},
	'remove-inspector': {
		help: 'takes an inspector off a confirmed inspection',
		takes: ID,
		events: ['inspection.inspector_removed', 'inspection.updated'],
		run: removeInspector,
	},
	'add-service': {
		help: 'sells an add-on on a confirmed inspection: its price is added and is due',
		takes: ID,
		events: ['inspection.fees_changed', 'inspection.updated'],
		run: addService,
	},
	'new-role': {
		help: 'makes a past client the buyer agent of a confirmed inspection, a role they never had',
		takes: '[--id <contact>]',
		events: ['contact.new_role', 'contact.updated', 'inspection.updated'],
		run: giveNewRole,
	},
	'schedule-soon': {
		help: 'books a confirmed inspection for a client, starting in an hour, for two hours',
		events: [
			'inspection.created',
			'inspection.confirmed',
			'inspection.inspector_assigned',
			['inspection.starting', `at the next poll, as it starts within ${HOURS_BEFORE}`],
			[
				'inspection.ended',
				`once the trigger has seen it (its next poll) and the clock is past its end and ${HOURS_AFTER}`,
			],
		],
		run: scheduleSoonConfirmed,
	},
	'schedule-soon-waiting': {
		help: 'the same, but the inspection waits for confirmation',
		events: [
			'inspection.created',
			'inspection.inspector_assigned',
			['inspection.starting', CONFIRMED_ONLY],
			['inspection.ended', CONFIRMED_ONLY],
		],
		run: scheduleSoonWaiting,
	},
	clock: {
		help: "moves the sandbox's clock forward, such as 28h, 52h or 3d: time passes",
		takes: '<how far>',
		events: [
			['inspection.starting', `for each inspection now within ${HOURS_BEFORE}`],
			['inspection.ended', `for each inspection now past its end and ${HOURS_AFTER}`],
		],
		run: advanceClock,
	},
	'new-inspection': {
		help: 'books an inspection for tomorrow, waiting for confirmation',
		events: ['inspection.created', 'inspection.inspector_assigned'],
		run: newInspection,
	},
	appointment: {
		help: 'adds an appointment (a key pick-up tomorrow) to a confirmed inspection',
		takes: ID,
		events: ['inspection_event.created'],
		run: appointment,
	},
	contact: {
		help: "changes a contact's phone number (the contact changed last)",
		takes: '[--id <contact>]',
		events: ['contact.updated'],
		webhook: 'contact.changed',
		run: contactPhone,
	},
	'new-contact': {
		help: 'adds a contact',
		events: ['contact.created'],
		webhook: 'contact.changed',
		run: newContact,
	},
	attachment: {
		help: 'adds a document to a confirmed inspection through the API',
		takes: ID,
		events: ['attachment.added'],
		run: attachment,
	},
};

/** The change called `name`, or an error that says where the list is. */
export function changeNamed(name: string): Change {
	const change = Object.hasOwn(CHANGES, name) ? CHANGES[name] : undefined;
	if (!change) throw new Error(`Unknown change "${name}"; npm run sandbox -- --help lists them`);
	return change;
}

/** Runs one named change against the sandbox at `baseUrl`. */
export async function makeChange(
	baseUrl: string,
	name: string,
	input: ChangeInput = { args: [] },
): Promise<ChangeResult> {
	return await changeNamed(name).run(new Sandbox(baseUrl), input);
}
