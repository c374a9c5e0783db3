/**
 * The lists the trigger watches, as it keeps them: tags, inspectors, services
 * and add-ons as the JSON of [id, name] (services and add-ons tagged by kind),
 * roles as text; sorted, and bounded (bounds.ts). An id decides what was added
 * or removed; a renamed entry is another value but neither.
 */
import type { IDataObject } from 'n8n-workflow';

import { keptList, keptText } from './bounds';
import type { WatchedValue } from './packing';

export interface Named {
	id: string;
	name: string | null;
}

const objects = (value: unknown): IDataObject[] =>
	Array.isArray(value)
		? value.filter((v): v is IDataObject => typeof v === 'object' && v !== null && v.id != null)
		: [];
const nameOf = (v: IDataObject) => (typeof v.name === 'string' ? keptText(v.name) : null);
const named = (key: Array<string | null>) => JSON.stringify(key);
const standIn = (kind?: string) => (summary: string) =>
	named(kind === undefined ? [summary, null] : [kind, summary, null]);

/** Tags, inspectors: [id, name]; services and add-ons: [kind, id, name]. */
export const namedKeys = (value: unknown, kind?: string): string[] =>
	keptList(
		objects(value)
			.map((v) => {
				const id = keptText(String(v.id));
				return named(kind === undefined ? [id, nameOf(v)] : [kind, id, nameOf(v)]);
			})
			.sort(),
		standIn(kind),
	);

export function namedOf(key: string): Named & { kind?: string } {
	const parts = JSON.parse(key) as Array<string | null>;
	if (parts.length === 3)
		return { kind: parts[0] ?? '', id: String(parts[1]), name: parts[2] ?? null };
	return { id: String(parts[0]), name: parts[1] ?? null };
}

/** Text entries (roles), kept and sorted. */
export const textKeys = (value: unknown): string[] =>
	keptList(
		Array.isArray(value)
			? value
					.filter((v): v is string => typeof v === 'string')
					.map(keptText)
					.sort()
			: [],
		(summary) => summary,
	);

const identity = (key: string) => {
	const n = namedOf(key);
	return `${n.kind ?? ''}/${n.id}`;
};
const keysOf = (value: WatchedValue | undefined): string[] =>
	Array.isArray(value) ? value.map(String) : [];

/** The ids (with their kind) of a named list. */
export const idsIn = (value: WatchedValue | undefined) => new Set(keysOf(value).map(identity));

/** The entries of `a` whose id (and kind) is not in `b`. */
export function missingKeys(a: WatchedValue | undefined, b: WatchedValue | undefined): string[] {
	const ids = idsIn(b);
	return keysOf(a).filter((key) => !ids.has(identity(key)));
}

const plain = ({ id, name }: Named) => ({ id, name });

/** A named list as users read it: {id, name} each. */
export const showNamed = (value: WatchedValue) => keysOf(value).map(namedOf).map(plain);

/** What `changes` adds to a named list: the entries added and removed, by id. */
export const namedDiff = (before: WatchedValue | undefined, after: WatchedValue) => ({
	added: missingKeys(after, before).map(namedOf).map(plain),
	removed: missingKeys(before, after).map(namedOf).map(plain),
});

/** The services and add-ons of a record as one watched value. */
export const serviceKeys = (record: IDataObject): string[] =>
	[...namedKeys(record.services, 's'), ...namedKeys(record.add_ons, 'a')].sort();

/** `changes.services` as users read it: {id, name} lists, split by kind. */
export function showServices(value: WatchedValue): IDataObject {
	const all = keysOf(value).map(namedOf);
	return {
		services: all.filter((n) => n.kind === 's').map(plain),
		add_ons: all.filter((n) => n.kind === 'a').map(plain),
	};
}

/** Services and add-ons added and removed, by id. */
export const servicesDiff = (before: WatchedValue | undefined, after: WatchedValue) => ({
	added: showServices(missingKeys(after, before)),
	removed: showServices(missingKeys(before, after)),
});

/** Text entries in `now` that `before` does not have. */
export function newEntries(
	before: WatchedValue | undefined,
	now: WatchedValue | undefined,
): string[] {
	if (!Array.isArray(now)) return [];
	const had = new Set(keysOf(before));
	return keysOf(now).filter((entry) => !had.has(entry));
}

/**
 * The roles a contact has had: the API's `roles` are the distinct roles it has
 * had on inspections, so a role once seen stays, even if a later version of the
 * record leaves it out. A role seen once is never new again.
 */
export function rolesHad(before: WatchedValue | undefined, now: WatchedValue): WatchedValue {
	if (!Array.isArray(before) || !Array.isArray(now)) return now;
	const all = new Set([...keysOf(before), ...keysOf(now)]);
	return textKeys([...all]);
}
