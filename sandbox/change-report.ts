/**
 * What `npm run sandbox -- <change>` prints: what it did, the record as it is
 * now (the fields a business owner checks), and the trigger events to expect,
 * read from the changes table.
 */
import type { Change, Expected } from './changes';
import { TRIGGER_EVENT_LABELS } from './changes';
import type { ChangeResult, Contact, Inspection } from './change-target';

const fullName = (person: { first_name: string | null; last_name: string | null }) =>
	[person.first_name, person.last_name].filter(Boolean).join(' ');
const amount = (value: number | null) => (value === null ? '-' : String(value));

function inspectionLines(inspection: Inspection): string[] {
	const { price, agreements } = inspection;
	const clients = inspection.contacts
		.filter((contact) => contact.role === 'Customer')
		.map((client) => `${fullName(client)}${client.email ? ` <${client.email}>` : ''}`);
	const signed = agreements.items.filter((item) => item.status === 'signed').length;
	const schedule = inspection.scheduled_for
		? `${inspection.scheduled_for}, ${inspection.duration_hours ?? '?'} hours`
		: 'not scheduled';
	const services = [...inspection.services, ...inspection.add_ons].map((s) => s.name ?? s.id);
	return [
		`Inspection  ${inspection.id} (${inspection.status})`,
		`Address     ${inspection.address.full ?? '-'}`,
		`Scheduled   ${schedule}`,
		`Client      ${clients.join(', ') || '-'}`,
		`Services    ${services.join(', ') || '-'}`,
		`Price       quote ${amount(price.quote)}, paid ${amount(price.amount_paid)}, due ${amount(price.amount_due)} (${price.paid ? 'fully paid' : (price.payment_status ?? 'not paid')})`,
		`Agreements  ${agreements.items.length === 0 ? 'none' : `${signed} of ${agreements.items.length} signed`}`,
		`Report      ${inspection.reports.status}`,
		`Inspectors  ${inspection.inspectors.map((one) => one.name ?? one.id).join(', ') || '-'}`,
	];
}

const contactLines = (contact: Contact) => [
	`Contact     ${contact.id}`,
	`Name        ${fullName(contact)} <${contact.email}>`,
	`Roles       ${contact.roles.join(', ') || '-'}`,
];

/** One expected event as the editor names it, its value, and when it comes if not always. */
export function expectedLine(expected: Expected): string {
	const [event, when] = typeof expected === 'string' ? [expected, undefined] : expected;
	return `${TRIGGER_EVENT_LABELS[event]} (${event})${when ? `, ${when}` : ''}`;
}

/** The lines the CLI prints after a change. */
export function reportLines(change: Change, result: ChangeResult): string[] {
	const record = [
		...(result.contact ? contactLines(result.contact) : []),
		...(result.inspection ? inspectionLines(result.inspection) : []),
	];
	return [
		`${result.said}.`,
		...(record.length ? ['', ...record.map((line) => `  ${line}`)] : []),
		'',
		'A published Inspection Business Trigger reports, at its next poll (every minute by default), those of its Events:',
		...change.events.map((expected) => `  ${expectedLine(expected)}`),
		change.webhook
			? `The account sends the webhook ${change.webhook} now, to every registered receiver.`
			: 'The account sends no webhook for this change.',
	];
}
