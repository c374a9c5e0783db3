/**
 * What the trigger keeps of a listed record version: its key, its version
 * (change time and content hash) and its memory (records.ts), read from the
 * API's fields through the business facts of shared/inspectionFacts.ts. What a
 * record cannot say by itself is carried from the memory held before: the
 * once-moments that happened, the start time last reminded of, the last known
 * start and quote, the roles the contact has had.
 */
import type { IDataObject } from 'n8n-workflow';

import { SIGNED_LINK_FIELDS } from '../../shared/endpoints';
import {
	allAgreementsSigned,
	apiTime,
	cents,
	child,
	hasNothingToPay,
	hasNothingToSign,
	isPaid,
	plannedLengthMs,
	publishedReportCount,
} from '../../shared/inspectionFacts';
import { isUuid } from '../../shared/rules/formats';
import {
	hashText,
	keptText,
	type AppointmentMemory,
	type ContactMemory,
	type HeldList,
	heldList,
	type HeldResource,
	type InspectionFact,
	type InspectionMemory,
	type MemoryOf,
	type Named,
	packId,
	type Service,
	serviceId,
} from './records';

/** The identity of a record, packed; null without an id (attachment ids are unique only within their inspection). */
export function recordKey(resource: HeldResource, record: IDataObject): string | null {
	const id = record.id;
	if (typeof id !== 'string' && typeof id !== 'number') return null;
	const own = packId(String(id), isUuid(id));
	if (resource !== 'attachments') return own;
	const inspection = record.inspection_id;
	return typeof inspection === 'string' ? `${packId(inspection, isUuid(inspection))}/${own}` : null;
}

/** A record's change time; attachments may lack updated_at, and then created_at stands in. */
export const changeTime = (record: IDataObject): number =>
	apiTime(record.updated_at) ?? apiTime(record.created_at) ?? 0;

/** The record as JSON with its keys sorted at every level, so equal content gives equal text. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

const SIGNED_LINKS: ReadonlySet<string> = new Set(SIGNED_LINK_FIELDS);

/**
 * A short hash of a record version's content. Signed links are left out: they
 * are minted afresh on every read, the record has not changed. 32 bits keep
 * the state small; two versions of one record colliding is a 1 in 4 billion
 * chance per change.
 */
export function contentHashOf(record: IDataObject): string {
	const content = Object.fromEntries(
		Object.entries(record).filter(([field]) => !SIGNED_LINKS.has(field)),
	);
	return hashText(canonicalJson(content));
}

const text = (value: unknown): string | null =>
	typeof value === 'string' ? keptText(value) : null;

const objects = (value: unknown): IDataObject[] =>
	Array.isArray(value)
		? value.filter((v): v is IDataObject => typeof v === 'object' && v !== null && v.id != null)
		: [];
const namedOf = (v: IDataObject): Named => ({ id: keptText(String(v.id)), name: text(v.name) });
const namedList = (value: unknown) => heldList(objects(value).map(namedOf), (n) => n.id);
const texts = (value: unknown): string[] =>
	Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map(keptText) : [];
const textList = (values: string[]) => heldList([...new Set(values)], (t) => t);

function servicesOf(record: IDataObject): HeldList<Service> {
	const all: Service[] = [
		...objects(record.services).map((v) => ({ ...namedOf(v), kind: 'service' as const })),
		...objects(record.add_ons).map((v) => ({ ...namedOf(v), kind: 'add_on' as const })),
	];
	return heldList(all, serviceId);
}

function contactMemory(record: IDataObject, before?: ContactMemory): ContactMemory {
	const roles = texts(record.roles);
	return {
		email: text(record.email),
		tags: namedList(record.tags),
		// A role left out of a later version stays: the API's roles are the roles it has had.
		rolesHad: textList(before ? [...before.rolesHad.entries, ...roles] : roles),
		agencyId: text(record.agency_id),
	};
}

const QUARTER_HOUR = 15 * 60_000;
/** Longer is taken for a data error; the kept length stops here (two weeks). */
const MAX_LENGTH_QUARTERS = 14 * 24 * 4;

function inspectionFacts(record: IDataObject): InspectionFact[] {
	const facts: Array<[InspectionFact, boolean]> = [
		['deleted', record.deleted === true],
		['paid', isPaid(record)],
		['signed', allAgreementsSigned(record)],
		['nothingToSign', hasNothingToSign(record)],
		['nothingToPay', hasNothingToPay(record)],
	];
	return facts.filter(([, holds]) => holds).map(([fact]) => fact);
}

function inspectionMemory(record: IDataObject, before?: InspectionMemory): InspectionMemory {
	const price = child(record, 'price');
	const start = apiTime(record.scheduled_for);
	const quote = cents(price.quote);
	return {
		status: text(record.status),
		reportsStatus: text(child(record, 'reports').status),
		publishedReports: publishedReportCount(record),
		facts: inspectionFacts(record),
		happened: before?.happened ?? [],
		start,
		lastStart: start !== null ? null : (before?.start ?? before?.lastStart ?? null),
		lengthQuarters: Math.min(
			Math.ceil(plannedLengthMs(record) / QUARTER_HOUR),
			MAX_LENGTH_QUARTERS,
		),
		remindedStart: before?.remindedStart ?? null,
		paymentStatus: text(price.payment_status),
		amountDueCents: cents(price.amount_due),
		amountPaidCents: cents(price.amount_paid),
		quoteCents: quote ?? before?.quoteCents ?? null,
		inspectors: namedList(record.inspectors),
		services: servicesOf(record),
	};
}

const appointmentMemory = (record: IDataObject): AppointmentMemory => ({
	name: text(record.name),
	startAt: apiTime(record.start_at),
	endAt: apiTime(record.end_at),
	inspectorIds: textList(texts(record.inspector_ids)),
});

const READERS: {
	[R in HeldResource]: (record: IDataObject, before?: MemoryOf<R>) => MemoryOf<R>;
} = {
	contacts: contactMemory,
	inspections: inspectionMemory,
	events: appointmentMemory,
	attachments: () => ({}),
};

/** The memory of a record version; `before`: the memory held of the version before, whose carried parts stay. */
export function memoryOf<R extends HeldResource>(
	resource: R,
	record: IDataObject,
	before?: MemoryOf<R>,
): MemoryOf<R> {
	return READERS[resource](record, before);
}

/** When an inspection ends (ms): its start plus its length, kept to the quarter hour rounded up. */
export const endOf = (memory: InspectionMemory): number | null =>
	memory.start === null ? null : memory.start + memory.lengthQuarters * QUARTER_HOUR;
