import type { OrgId } from '../keys';
import type { Prng } from '../prng';
import { SAMPLE_FILES } from '../samples';
import type { Store } from '../store';
import type { InspectionRec } from '../types';
import type { People } from './people';
import { seedAttachments, seedEvents, type AddFile } from './extras';
import * as W from './words';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const SAMPLE_INSPECTIONS_PER_ORG = 3;

export interface InspectionSeedOptions {
	count: number;
	people: People;
	anchor: number;
	addFile: AddFile;
}

function pickStatus(rng: Prng, future: boolean): InspectionRec['status'] {
	const r = rng.next();
	if (r < 0.1) return 'canceled';
	if (future) return r < 0.6 ? 'confirmed' : r < 0.75 ? 'waiting' : r < 0.9 ? 'draft' : 'review';
	return r < 0.88 ? 'confirmed' : r < 0.93 ? 'review' : r < 0.97 ? 'waiting' : 'draft';
}

function pickContacts(rng: Prng, people: People): InspectionRec['contacts'] {
	const list: InspectionRec['contacts'] = [];
	const add = (id: string | undefined, role: string) => {
		if (id && !list.some((c) => c.id === id)) list.push({ id, role });
	};
	add(rng.pick(people.clients), 'Customer');
	if (rng.chance(0.25)) add(rng.pick(people.clients), 'Customer');
	if (rng.chance(0.75)) add(rng.pick(people.agents), 'Buyer Agent');
	if (rng.chance(0.4)) add(rng.pick(people.agents), 'Listing Agent');
	if (people.others.length && rng.chance(0.2)) {
		const other = rng.pick(people.others);
		add(other.id, other.role);
	}
	return list;
}

function schedule(rng: Prng, index: number, anchor: number) {
	const sample = index < SAMPLE_INSPECTIONS_PER_ORG;
	const day = sample ? -30 - index : rng.int(-700, 60);
	const unscheduled = !sample && day > 0 && rng.chance(0.05);
	const scheduledFor = unscheduled ? null : anchor + day * DAY + (8 + rng.int(0, 16) / 2) * HOUR;
	const future = scheduledFor === null || scheduledFor > anchor;
	const createdAt = Math.min(
		anchor - HOUR,
		(scheduledFor ?? anchor) - rng.int(1, 30) * DAY - rng.int(0, DAY),
	);
	return { sample, scheduledFor, future, createdAt };
}

/** Builds the inspections of one organization, with their events and attachments. */
export function seedInspections(
	store: Store,
	rng: Prng,
	org: OrgId,
	options: InspectionSeedOptions,
): void {
	const { anchor, people, addFile } = options;
	const places = W.PLACES[org];
	for (let i = 0; i < options.count; i++) {
		const { sample, scheduledFor, future, createdAt } = schedule(rng, i, anchor);
		const status = sample
			? 'confirmed'
			: scheduledFor === null
				? rng.pick(['draft', 'waiting'] as const)
				: pickStatus(rng, future);
		const deleted = !sample && i % 37 === 5;
		const place = rng.pick(places);
		const street = `${rng.int(100, 9999)} ${rng.pick(W.STREETS)}`;
		const unit = rng.chance(0.15) ? `Unit ${rng.int(1, 30)}` : null;
		const service = rng.int(0, W.SERVICES.length - 1);
		const addOns = [
			...new Set(
				[0, 1, 2].filter(() => rng.chance(0.25)).map(() => rng.int(0, W.ADD_ONS.length - 1)),
			),
		];
		const quote =
			W.SERVICES[service].price + addOns.reduce((sum, a) => sum + W.ADD_ONS[a].price, 0);
		const paid = status === 'confirmed' && !future && rng.chance(0.85);
		const sqft = rng.int(600, 4800);
		const duration = Math.round((2 + sqft / 2000) * 2) / 2;
		const lead = rng.int(0, W.INSPECTOR_NAMES.length - 1);
		const inspectors = Array.from({ length: rng.chance(0.1) ? 2 : 1 }, (_, k) => {
			const n = (lead + k) % W.INSPECTOR_NAMES.length;
			return { id: `insp-${org}-${n + 1}`, name: W.INSPECTOR_NAMES[n] };
		});
		const reportStatus: InspectionRec['reports']['status'] =
			status !== 'confirmed'
				? 'na'
				: future
					? 'pending'
					: sample
						? 'published'
						: rng.pick(['published', 'published', 'published', 'partial', 'pending']);
		const signed = status !== 'draft' && rng.chance(0.9);
		let updatedAt =
			scheduledFor !== null && !future
				? Math.min(anchor, scheduledFor + rng.int(1, 72) * HOUR)
				: createdAt + rng.int(0, Math.max(0, anchor - createdAt));
		const canceledAt =
			status === 'canceled' ? Math.min(anchor, createdAt + rng.int(1, 20) * DAY) : null;
		if (canceledAt !== null) updatedAt = Math.max(updatedAt, canceledAt);
		const deletedAt = deleted ? Math.min(anchor, updatedAt + rng.int(1, 96) * HOUR) : null;
		if (deletedAt !== null) updatedAt = deletedAt;
		const referral = rng.chance(0.6) ? rng.int(0, W.REFERRAL_SOURCES.length - 1) : null;
		const discount = rng.chance(0.08) ? rng.int(0, W.DISCOUNT_CODES.length - 1) : null;
		const rec: InspectionRec = {
			org,
			id: rng.uuid(),
			sample,
			status,
			scheduledFor,
			durationHours: scheduledFor === null ? null : duration,
			createdAt,
			updatedAt,
			canceledAt,
			deletedAt,
			urgent: rng.chance(0.05),
			booked_online: rng.chance(0.4),
			address: {
				full: `${street}${unit ? `, ${unit}` : ''}, ${place.city}, ${place.state} ${place.zip}`,
				street,
				unit,
				city: place.city,
				state: place.state,
				zip: place.zip,
				county: place.county,
				country: 'US',
			},
			property: {
				type: rng.pick(W.PROPERTY_TYPES),
				square_footage: sqft,
				year_built: rng.int(1905, 2024),
				bedrooms: String(rng.int(1, 6)),
				bathrooms: String(rng.int(2, 8) / 2),
				occupancy: rng.pick(W.OCCUPANCIES),
				foundation: rng.pick(W.FOUNDATIONS),
			},
			description: sample
				? 'Sample inspection: explore how a finished inspection looks.'
				: rng.chance(0.6)
					? `${W.SERVICES[service].name} at ${street}`
					: null,
			notes: rng.chance(0.3)
				? 'Client booking notes: lockbox on the side gate; dog in the backyard.'
				: null,
			services: [{ id: `svc-${service + 1}`, name: W.SERVICES[service].name }],
			add_ons: addOns.map((a) => ({
				id: `addon-${a + 1}`,
				name: W.ADD_ONS[a].name,
				quantity: a === 5 ? rng.int(1, 3) : 1,
			})),
			inspectors,
			contacts: pickContacts(rng, people),
			price: {
				quote,
				amount_paid: paid ? quote : 0,
				amount_due: paid ? 0 : quote,
				payment_status: paid ? 'paid' : 'unpaid',
				paid,
				pay_at_close_status: rng.chance(0.1) ? 'pending' : null,
			},
			agreements: {
				present: status !== 'draft',
				all_signed: signed,
				items:
					status === 'draft'
						? []
						: [
								{
									name: 'Pre-Inspection Agreement',
									status: signed ? 'signed' : 'sent',
									signed_at: signed ? new Date(createdAt + HOUR).toISOString() : null,
								},
							],
			},
			reports: {
				status: reportStatus,
				items:
					reportStatus === 'na'
						? []
						: [
								{
									id: `rpt-${i + 1}`,
									name: 'Home Inspection Report',
									status: reportStatus === 'partial' ? 'draft' : reportStatus,
								},
							],
			},
			referral_source:
				referral === null
					? null
					: { id: `ref-${referral + 1}`, name: W.REFERRAL_SOURCES[referral] },
			discount_codes:
				discount === null ? [] : [{ id: `dc-${discount + 1}`, ...W.DISCOUNT_CODES[discount] }],
			custom_fields: rng.chance(0.3)
				? [
						{ name: 'Gate code', value: `#${rng.int(1000, 9999)}` },
						{ name: 'Utilities on', value: rng.pick(['Yes', 'No']) },
					]
				: [],
			coverFileId:
				!deleted && rng.chance(0.1) ? addFile(SAMPLE_FILES.jpg, 'image/jpeg', 'cover.jpg') : null,
		};
		store.inspections.set(rec.id, rec);
		if (rng.chance(0.2)) seedEvents(store, rng, rec);
		if (sample || deleted || rng.chance(0.35)) seedAttachments(store, rng, rec, addFile);
	}
}
