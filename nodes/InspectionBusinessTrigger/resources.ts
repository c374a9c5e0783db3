/** The lists the polling trigger watches, and how much of each it remembers. */
export const RESOURCES = ['contacts', 'inspections', 'events', 'attachments'] as const;
export type Resource = (typeof RESOURCES)[number];

/**
 * Resources whose every record keeps its fingerprint (up to the cap): their
 * derived events and `changes` compare a version with the one before it, and
 * a baseline walks them in full. Attachments are only ever added, so the
 * dedupe's overlap window is all they keep.
 */
export const KEEPS_EVERY_RECORD: ReadonlySet<Resource> = new Set([
	'contacts',
	'inspections',
	'events',
]);
