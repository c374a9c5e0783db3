/**
 * What `npm run sandbox -- <change>` acts on: one running sandbox, read
 * through the v1 API with the Acme owner's key (as the demo's credential
 * sees it) and changed through the control API, as the business tools would.
 * A change acts on the record the user names with `--id`, or else on the most
 * recently changed record of Acme that fits it, so a second command finds the
 * record the first one changed (a part payment, then the rest).
 */
import { SandboxControl } from './client';
import { SANDBOX_KEYS } from './keys';
import type { InspectionRec } from './types';

/** An inspection as the v1 API renders it (the fields the changes read). */
export interface Inspection
	extends Pick<
		InspectionRec,
		| 'status'
		| 'address'
		| 'services'
		| 'add_ons'
		| 'inspectors'
		| 'price'
		| 'agreements'
		| 'reports'
	> {
	id: string;
	deleted?: boolean;
	sample?: boolean;
	scheduled_for: string | null;
	duration_hours: number | null;
	contacts: Array<{
		id: string;
		role: string;
		first_name: string | null;
		last_name: string | null;
		email: string | null;
	}>;
}

/** A contact as the v1 API renders it (the fields the changes read). */
export interface Contact {
	id: string;
	first_name: string;
	last_name: string | null;
	email: string;
	roles: string[];
}

/** What the user chose on the command line for the change. */
export interface ChangeInput {
	/** The record to act on (`--id`), instead of the most recently changed one that fits. */
	id?: string;
	/** The words after the command, such as the clock's `51h`. */
	args: string[];
}

/** What a change did: a sentence, the record's id, and the record as it is now. */
export interface ChangeResult {
	said: string;
	/** The record changed; none for the clock. */
	id?: string;
	inspection?: Inspection;
	contact?: Contact;
}

/** The v1 API with the Acme owner's key, and the control API, of one running sandbox. */
export class Sandbox {
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

	/** The first record of `list`, most recently changed first, that `fits`; or the one with `id`. */
	private async find<T extends { id: string; sample?: boolean }>(
		list: 'inspections' | 'contacts',
		fits: (record: T) => boolean,
		what: string,
		id: string | undefined,
		filter: Record<string, string> = {},
	): Promise<T> {
		if (id !== undefined) {
			const page = await this.v1<{ data: T[] }>(`${list}?${new URLSearchParams({ ids: id })}`);
			const [record] = page.data;
			if (!record) throw new Error(`Acme has no record ${id} in ${list}`);
			if (!fits(record)) throw new Error(`${id} is not ${what}`);
			return record;
		}
		let cursor: string | null = null;
		do {
			const query = new URLSearchParams({ limit: '200', sort: '-updated_at', ...filter });
			if (cursor) query.set('cursor', cursor);
			const page: { data: T[]; next_cursor: string | null } = await this.v1(`${list}?${query}`);
			const found = page.data.find((record) => !record.sample && fits(record));
			if (found) return found;
			cursor = page.next_cursor;
		} while (cursor);
		throw new Error(`Acme has no ${what} left; npm run sandbox -- reset starts again`);
	}

	/** The most recently changed inspection that `fits` (never a sample), or the one with `id`. */
	inspection(fits: (inspection: Inspection) => boolean, what: string, id?: string) {
		return this.find<Inspection>('inspections', fits, what, id);
	}

	/** The most recently changed contact that `fits` (of `role`, a role or role group), or the one with `id`. */
	contact(fits: (contact: Contact) => boolean, what: string, id?: string, role?: string) {
		return this.find<Contact>('contacts', fits, what, id, role ? { role } : {});
	}

	/** The inspection as the API renders it now. */
	async inspectionNow(id: string): Promise<Inspection> {
		const page = await this.v1<{ data: Inspection[] }>(`inspections?ids=${id}`);
		return page.data[0];
	}
}

/** A control route's answer: the inspection as the API renders it. */
export const asInspection = (record: Record<string, unknown>) => record as unknown as Inspection;

export const confirmed = (inspection: Inspection) =>
	inspection.status === 'confirmed' && inspection.deleted !== true;
