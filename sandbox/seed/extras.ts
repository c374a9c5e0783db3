import type { Prng } from '../prng';
import { SAMPLE_FILES, type SampleExtension } from '../samples';
import type { Store } from '../store';
import type { InspectionRec } from '../types';
import * as W from './words';

const HOUR = 60 * 60 * 1000;

const CONTENT_TYPES: Record<SampleExtension, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	gif: 'image/gif',
	webp: 'image/webp',
	pdf: 'application/pdf',
	txt: 'text/plain',
	csv: 'text/csv',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export type AddFile = (data: Buffer, contentType: string, filename: string) => string;

/** An inspection's appointments (eventsPath): drop-offs, pick-ups, re-inspections. */
export function seedEvents(store: Store, rng: Prng, inspection: InspectionRec): void {
	const count = rng.int(1, 2);
	for (let k = 0; k < count; k++) {
		const kind = rng.pick(W.EVENT_NAMES);
		const startAt =
			inspection.scheduledFor === null ? null : inspection.scheduledFor + k * 48 * HOUR;
		const inspectorIds = inspection.inspectors.map((x) => x.id);
		const id = rng.uuid();
		store.events.set(id, {
			org: inspection.org,
			id,
			inspectionId: inspection.id,
			name: kind.name,
			description: rng.chance(0.5) ? `${kind.name} for ${inspection.address.street}` : null,
			startAt,
			endAt: startAt === null ? null : startAt + kind.hours * HOUR,
			durationHours: kind.hours,
			blocksCalendar: rng.chance(0.7),
			inspectorIds,
			createdAt: inspection.createdAt,
			updatedAt: inspection.updatedAt,
		});
	}
}

/** An inspection's attachments, ids 1, 2, 3… (repeated across inspections on purpose); reports only on confirmed ones. */
export function seedAttachments(
	store: Store,
	rng: Prng,
	inspection: InspectionRec,
	addFile: AddFile,
): void {
	const list = store.attachmentsOf(inspection.id);
	const count = rng.int(1, 3);
	const base = inspection.scheduledFor ?? inspection.createdAt;
	for (let k = 0; k < count; k++) {
		const isReport = inspection.status === 'confirmed' && rng.chance(0.5);
		const createdAt = Math.min(inspection.updatedAt, base + rng.int(1, 96) * HOUR);
		const id = String(k + 1); // repeats across inspections on purpose
		if (isReport) {
			const name = rng.pick(W.REPORT_ATTACHMENTS);
			const withFile = rng.chance(0.8);
			const filename = `${name.replace(/ /g, '_')}.pdf`;
			list.push({
				org: inspection.org,
				inspectionId: inspection.id,
				id,
				kind: 'report',
				name,
				description: withFile
					? null
					: `View it online: https://lab.example/results/${inspection.id.slice(0, 8)}-${id}`,
				filename: withFile ? filename : null,
				contentType: withFile ? 'application/pdf' : null,
				sizeBytes: withFile ? SAMPLE_FILES.pdf.length : null,
				fileId: withFile ? addFile(SAMPLE_FILES.pdf, 'application/pdf', filename) : null,
				visibleToClient: true,
				createdAt,
				updatedAt: createdAt,
			});
			continue;
		}
		const doc = rng.pick(W.DOCUMENT_ATTACHMENTS);
		const ext = doc.name.slice(doc.name.lastIndexOf('.') + 1) as SampleExtension;
		const filename = doc.name.replace(/ /g, '_');
		list.push({
			org: inspection.org,
			inspectionId: inspection.id,
			id,
			kind: 'document',
			name: filename,
			description: null,
			filename,
			contentType: CONTENT_TYPES[ext],
			sizeBytes: SAMPLE_FILES[ext].length,
			fileId: addFile(SAMPLE_FILES[ext], CONTENT_TYPES[ext], filename),
			visibleToClient: !doc.internal,
			createdAt,
			updatedAt: createdAt,
		});
	}
}
