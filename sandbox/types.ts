import type { OrgId } from './keys';

/** Contact fields stored as sent; agency link, tags and photo are kept apart. */
export interface ContactFields {
	first_name: string;
	email: string;
	[name: string]: string | null | Record<string, string>;
}

export interface ContactRec {
	org: OrgId;
	id: string;
	fields: ContactFields;
	agencyId: string | null;
	/** agency_name as plain text; null while an agency is linked. */
	agencyText: string | null;
	usesAgencyAddress: boolean;
	tagIds: string[];
	photoFileId: string | null;
	createdAt: number;
	updatedAt: number;
}

export interface TagRec {
	org: OrgId;
	id: string;
	name: string;
}

export interface AgencyRec {
	org: OrgId;
	id: string;
	name: string;
	address: string | null;
	address_line2: string | null;
	city: string | null;
	state: string | null;
	zip: string | null;
	country: string | null;
	phone: string | null;
	website: string | null;
	notes: string | null;
	createdAt: number;
	updatedAt: number;
}

export type Named = { id: string; name: string | null };

export interface InspectionRec {
	org: OrgId;
	id: string;
	/** Sample inspections exist in every account; the account-wide attachment list leaves them out. */
	sample: boolean;
	status: 'draft' | 'waiting' | 'review' | 'confirmed' | 'canceled';
	scheduledFor: number | null;
	durationHours: number | null;
	createdAt: number;
	updatedAt: number;
	canceledAt: number | null;
	deletedAt: number | null;
	urgent: boolean;
	booked_online: boolean;
	address: Record<
		'full' | 'street' | 'unit' | 'city' | 'state' | 'zip' | 'county' | 'country',
		string | null
	>;
	property: {
		type: string | null;
		square_footage: number | null;
		year_built: number | null;
		bedrooms: string | null;
		bathrooms: string | null;
		occupancy: string | null;
		foundation: string | null;
	};
	description: string | null;
	notes: string | null;
	services: Named[];
	add_ons: Array<Named & { quantity: number }>;
	inspectors: Named[];
	/** Rendered with the contact's current name, email and agency. */
	contacts: Array<{ id: string; role: string }>;
	price: {
		quote: number | null;
		amount_paid: number | null;
		amount_due: number | null;
		payment_status: string | null;
		paid: boolean;
		pay_at_close_status: string | null;
	};
	agreements: {
		present: boolean;
		all_signed: boolean;
		items: Array<{ name: string | null; status: string | null; signed_at: string | null }>;
	};
	reports: {
		status: 'na' | 'pending' | 'partial' | 'published';
		items: Array<{ id: string | null; name: string | null; status: string | null }>;
	};
	referral_source: Named | null;
	discount_codes: Array<Named & { code: string | null }>;
	custom_fields: Array<{ name: string | null; value: string | null }>;
	coverFileId: string | null;
}

export interface EventRec {
	org: OrgId;
	id: string;
	inspectionId: string;
	name: string | null;
	description: string | null;
	startAt: number | null;
	endAt: number | null;
	durationHours: number;
	blocksCalendar: boolean;
	inspectorIds: string[];
	createdAt: number | null;
	updatedAt: number | null;
}

export interface AttachmentRec {
	org: OrgId;
	inspectionId: string;
	/** Unique within its inspection only. */
	id: string;
	kind: 'report' | 'document';
	name: string | null;
	description: string | null;
	filename: string | null;
	contentType: string | null;
	sizeBytes: number | null;
	fileId: string | null;
	visibleToClient: boolean;
	createdAt: number;
	updatedAt: number;
}

export interface StoredFile {
	data: Buffer;
	contentType: string;
	filename: string;
}

/** An "automation email" the account would send when a report is uploaded. */
export interface EmailRec {
	org: OrgId;
	inspection_id: string;
	attachment_id: string;
	to: string[];
	time: string;
}
