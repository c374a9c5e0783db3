import type { OrgId } from './keys';
import type {
	AgencyRec,
	AttachmentRec,
	ContactRec,
	EmailRec,
	EventRec,
	InspectionRec,
	StoredFile,
	TagRec,
} from './types';
import { CONTACT_ROLES } from '../nodes/shared/endpoints';

const DERIVED_CACHE_MAX = 64;

/**
 * All records of every organization. Every write calls `changed()`, which bumps
 * `version`; derived data (sort orders, counts, roles) is rebuilt lazily for the
 * current version only.
 */
export class Store {
	version = 0;
	readonly contacts = new Map<string, ContactRec>();
	readonly tags = new Map<string, TagRec>();
	readonly agencies = new Map<string, AgencyRec>();
	readonly inspections = new Map<string, InspectionRec>();
	readonly events = new Map<string, EventRec>();
	/** By inspection id: attachment ids repeat across inspections. */
	readonly attachments = new Map<string, AttachmentRec[]>();
	readonly files = new Map<string, StoredFile>();
	readonly emails: EmailRec[] = [];
	private readonly derived = new Map<string, { version: number; value: unknown }>();

	changed(): void {
		this.version++;
	}

	/**
	 * A store holding copies of these records, so that writes to one never reach the other. Stored
	 * files are shared: a file's bytes are replaced or deleted, never changed in place.
	 */
	copy(): Store {
		const copy = new Store();
		copy.version = this.version;
		copyRecords(this.contacts, copy.contacts);
		copyRecords(this.tags, copy.tags);
		copyRecords(this.agencies, copy.agencies);
		copyRecords(this.inspections, copy.inspections);
		copyRecords(this.events, copy.events);
		copyRecords(this.attachments, copy.attachments);
		for (const [id, file] of this.files) copy.files.set(id, file);
		copy.emails.push(...this.emails.map(copyPlain));
		return copy;
	}

	/** A value computed from the records, cached until the next write. */
	derive<T>(key: string, build: () => T): T {
		const hit = this.derived.get(key);
		if (hit && hit.version === this.version) return hit.value as T;
		if (this.derived.size >= DERIVED_CACHE_MAX) {
			for (const [k, v] of this.derived) if (v.version !== this.version) this.derived.delete(k);
			if (this.derived.size >= DERIVED_CACHE_MAX) this.derived.clear();
		}
		const value = build();
		this.derived.set(key, { version: this.version, value });
		return value;
	}

	list<T extends { org: OrgId }>(records: Map<string, T>, org: OrgId): T[] {
		const out: T[] = [];
		for (const rec of records.values()) if (rec.org === org) out.push(rec);
		return out;
	}

	find<T extends { org: OrgId }>(records: Map<string, T>, org: OrgId, id: string): T | undefined {
		const rec = records.get(id.toLowerCase());
		return rec && rec.org === org ? rec : undefined;
	}

	/** Inspections (not deleted) each contact appears on, in any role. */
	contactInspections(): Map<string, Array<{ inspection: InspectionRec; role: string }>> {
		return this.derive('contact-inspections', () => {
			const byContact = new Map<string, Array<{ inspection: InspectionRec; role: string }>>();
			for (const inspection of this.inspections.values()) {
				if (inspection.deletedAt !== null) continue;
				for (const { id, role } of inspection.contacts) {
					let list = byContact.get(id);
					if (!list) byContact.set(id, (list = []));
					list.push({ inspection, role });
				}
			}
			return byContact;
		});
	}

	/** Distinct roles a contact has had on inspections, in the spec's role order. */
	roles(contactId: string): string[] {
		const entries = this.contactInspections().get(contactId);
		if (!entries) return [];
		const held = new Set(entries.map((e) => e.role));
		return CONTACT_ROLES.filter((role) => held.has(role));
	}

	tagCounts(): Map<string, number> {
		return this.derive('tag-counts', () => {
			const counts = new Map<string, number>();
			for (const c of this.contacts.values())
				for (const t of c.tagIds) counts.set(t, (counts.get(t) ?? 0) + 1);
			return counts;
		});
	}

	agencyCounts(): Map<string, number> {
		return this.derive('agency-counts', () => {
			const counts = new Map<string, number>();
			for (const c of this.contacts.values()) {
				if (c.agencyId) counts.set(c.agencyId, (counts.get(c.agencyId) ?? 0) + 1);
			}
			return counts;
		});
	}

	attachmentsOf(inspectionId: string): AttachmentRec[] {
		let list = this.attachments.get(inspectionId);
		if (!list) this.attachments.set(inspectionId, (list = []));
		return list;
	}
}

/** Plain records (no buffers, no class instances), each copied to its last level. */
function copyRecords<T>(from: Map<string, T>, to: Map<string, T>): void {
	for (const [id, record] of from) to.set(id, copyPlain(record));
}

/** A copy of JSON-like data (objects, arrays, primitives); faster than structuredClone here. */
function copyPlain<T>(value: T): T {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map(copyPlain) as T;
	const copy: Record<string, unknown> = {};
	for (const [key, field] of Object.entries(value)) copy[key] = copyPlain(field);
	return copy as T;
}
