import { randomUUID } from 'node:crypto';
import { CONTACT_ROLE_GROUPS, FILE_RULES } from '../nodes/shared/endpoints';
import { iso } from './clock';
import type { ApiContext, RenderContext } from './context';
import { badRequest, notFound, ok, type Reply } from './http';
import { readMultipart } from './multipart';
import { servePage } from './paging';
import { parseQuery, type ParsedQuery } from './query';
import type { AttachmentRec, InspectionRec } from './types';
import { checkFileSize, checkFileType, sanitizeFilename } from './uploads';

function renderAttachment(ctx: RenderContext, a: AttachmentRec): Record<string, unknown> {
	return {
		id: a.id,
		inspection_id: a.inspectionId,
		kind: a.kind,
		name: a.name,
		description: a.description,
		filename: a.filename,
		content_type: a.contentType,
		size_bytes: a.sizeBytes,
		url: ctx.state.signer.link(ctx.origin, ctx.state.store, a.fileId),
		visible_to_client: a.visibleToClient,
		created_at: iso(a.createdAt),
		updated_at: iso(a.updatedAt),
	};
}

/** deletedInspectionGone: a deleted inspection's attachment paths answer 404, like an unknown id (unknownIdAnswers404). */
function pathInspection(ctx: ApiContext): InspectionRec {
	const id = ctx.pathParams.inspection_id;
	const inspection = ctx.state.store.find(ctx.state.store.inspections, ctx.org, id);
	if (!inspection || inspection.deletedAt !== null)
		throw notFound('inspection', id, 'inspection_id');
	return inspection;
}

const matches = (q: ParsedQuery) => (a: AttachmentRec) =>
	(typeof q.kind !== 'string' || a.kind === q.kind) &&
	(typeof q.visible_to_client !== 'boolean' || a.visibleToClient === q.visible_to_client);

/** GET /v1/inspections/{id}/attachments, ordered by id. */
export function listInspectionAttachments(ctx: ApiContext): Reply {
	const inspection = pathInspection(ctx);
	const q = parseQuery('listInspectionAttachments', ctx.search);
	const { store } = ctx.state;
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: `listInspectionAttachments:${inspection.id}`,
		org: ctx.org,
		query: q,
		build: () => (store.attachments.get(inspection.id) ?? []).filter(matches(q)),
		key: (a) => [a.id],
		parts: [{ id: true }],
	});
	return ok({ ...page, data: page.data.map((a) => renderAttachment(ctx, a)) });
}

/** GET /v1/attachments: newest change first (orderOfUnsortedLists), leaving out deleted and sample inspections. */
export function listAttachments(ctx: ApiContext): Reply {
	const q = parseQuery('listAttachments', ctx.search);
	const { store } = ctx.state;
	const since = typeof q.updated_since === 'number' ? q.updated_since : null;
	const build = () => {
		const out: AttachmentRec[] = [];
		const match = matches(q);
		for (const [inspectionId, list] of store.attachments) {
			const inspection = store.inspections.get(inspectionId);
			if (
				!inspection ||
				inspection.org !== ctx.org ||
				inspection.deletedAt !== null ||
				inspection.sample
			)
				continue;
			if (typeof q.inspection_id === 'string' && inspectionId !== q.inspection_id) continue;
			for (const a of list) if (match(a) && (since === null || a.updatedAt >= since)) out.push(a);
		}
		return out;
	};
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: 'listAttachments',
		org: ctx.org,
		query: q,
		build,
		key: (a) => [a.updatedAt, a.inspectionId, a.id],
		parts: [{ desc: true }, {}, { id: true }],
	});
	return ok({ ...page, data: page.data.map((a) => renderAttachment(ctx, a)) });
}

const UPLOAD_FIELDS = ['kind', 'name', 'description', 'internal_only'] as const;

/** POST /v1/inspections/{id}/attachments: the spec's report/document rule table, 201 with the Attachment. */
export async function uploadAttachment(ctx: ApiContext): Promise<Reply> {
	const inspection = pathInspection(ctx);
	const { fields, file } = await readMultipart(ctx.req, ctx.logEntry, {
		fields: UPLOAD_FIELDS,
		maxBytes: (soFar) =>
			soFar.kind === 'document' ? FILE_RULES.document.maxBytes : FILE_RULES.report.maxBytes,
	});
	const kind = fields.kind;
	if (kind === undefined)
		throw badRequest('kind', 'kind is required (report or document)', 'missing_field');
	if (kind !== 'report' && kind !== 'document')
		throw badRequest('kind', 'kind must be report or document', 'invalid_field');
	if (kind === 'report' && fields.internal_only !== undefined) {
		throw badRequest(
			'internal_only',
			'internal_only is for documents only; a report is always visible to the client',
			'invalid_field',
		); // attachmentUploadParts
	}
	if (kind === 'report' && !fields.name?.trim())
		throw badRequest('name', 'name is required for a report', 'missing_field');
	if (kind === 'document' && !file)
		throw badRequest('file', 'file is required for a document', 'missing_field');
	if (fields.internal_only !== undefined && !['true', 'false'].includes(fields.internal_only)) {
		throw badRequest('internal_only', 'internal_only must be true or false', 'invalid_field');
	}
	if (kind === 'report' && inspection.status !== 'confirmed') {
		throw badRequest(
			'inspection_id',
			`A report needs a confirmed inspection; this one is ${inspection.status}`,
			'inspection_not_confirmed',
		);
	}
	let stored: Pick<AttachmentRec, 'filename' | 'contentType' | 'sizeBytes' | 'fileId'> = {
		filename: null,
		contentType: null,
		sizeBytes: null,
		fileId: null,
	};
	const { store } = ctx.state;
	if (file) {
		checkFileSize(kind, file.size);
		const contentType = checkFileType(kind, file);
		const filename = sanitizeFilename(file.filename);
		const fileId = randomUUID();
		store.files.set(fileId, { data: file.data, contentType, filename });
		stored = { filename, contentType, sizeBytes: file.size, fileId };
	}
	const list = store.attachmentsOf(inspection.id);
	const now = ctx.state.writeTime();
	const attachment: AttachmentRec = {
		org: ctx.org,
		inspectionId: inspection.id,
		id: String(list.reduce((max, a) => Math.max(max, Number(a.id) || 0), 0) + 1),
		kind,
		name: fields.name?.trim() || stored.filename,
		description: fields.description ?? null,
		...stored,
		visibleToClient: kind === 'report' || fields.internal_only !== 'true',
		createdAt: now,
		updatedAt: now,
	};
	list.push(attachment);
	if (kind === 'report') recordAutomationEmail(ctx, inspection, attachment);
	store.changed();
	return ok(renderAttachment(ctx, attachment), 201);
}

/** The automations write to the client and the agents. */
const NOTIFIED_ROLES: readonly string[] = [
	...CONTACT_ROLE_GROUPS.client,
	...CONTACT_ROLE_GROUPS.agent,
];

/** Spec, Events 3: each report upload runs the account's automations, which email the client and agents. */
function recordAutomationEmail(
	ctx: ApiContext,
	inspection: InspectionRec,
	attachment: AttachmentRec,
): void {
	const { store } = ctx.state;
	const to = inspection.contacts
		.filter((c) => NOTIFIED_ROLES.includes(c.role))
		.map((c) => store.contacts.get(c.id)?.fields.email)
		.filter((email): email is string => typeof email === 'string');
	store.emails.push({
		org: ctx.org,
		inspection_id: inspection.id,
		attachment_id: attachment.id,
		to,
		time: iso(ctx.state.clock.now()),
	});
}
