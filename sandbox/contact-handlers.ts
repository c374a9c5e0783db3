import { randomUUID } from 'node:crypto';
import { FILE_RULES } from '../nodes/shared/endpoints';
import { parseContactBody } from './contact-body';
import { renderContact } from './contacts';
import { commitContact, writeContact } from './contact-write';
import type { ApiContext } from './context';
import { badRequest, notFound, ok, readJson, type Reply } from './http';
import { readMultipart } from './multipart';
import { sniffImage } from './sniff';
import type { ContactRec } from './types';
import { checkFileType, sanitizeFilename } from './uploads';

function pathContact(ctx: ApiContext): ContactRec {
	const id = ctx.pathParams.contact_id;
	const contact = ctx.state.store.find(ctx.state.store.contacts, ctx.org, id);
	if (!contact) throw notFound('contact', id, 'contact_id');
	return contact;
}

/** The request's JSON body, kept in the request log too. */
async function loggedJson(ctx: ApiContext): Promise<unknown> {
	const body = await readJson(ctx.req);
	ctx.logEntry.body = body;
	return body;
}

/** POST /v1/contacts: 201 with the Contact (createAnswers201). */
export async function createContact(ctx: ApiContext): Promise<Reply> {
	const body = parseContactBody('createContact', await loggedJson(ctx));
	return ok(renderContact(ctx, writeContact(ctx.state, ctx.org, null, body)), 201);
}

/** PATCH /v1/contacts/{id}: 200 with the Contact (updateAnswers200); unknown id 404 (unknownIdAnswers404). */
export async function updateContact(ctx: ApiContext): Promise<Reply> {
	const contact = pathContact(ctx);
	const body = parseContactBody('updateContact', await loggedJson(ctx));
	return ok(renderContact(ctx, writeContact(ctx.state, ctx.org, contact, body)));
}

/** POST /v1/contacts/{id}/photo: a real jpg/png/gif/webp up to 10 MB replaces the photo (photoWritesReturnContact: 200). */
export async function uploadContactPhoto(ctx: ApiContext): Promise<Reply> {
	const contact = pathContact(ctx);
	const rule = FILE_RULES.photo;
	const { file } = await readMultipart(ctx.req, ctx.logEntry, {
		fields: [],
		maxBytes: () => rule.maxBytes,
	});
	if (!file) throw badRequest('file', 'file is required', 'missing_field');
	const contentType = checkFileType('photo', file);
	const detected = sniffImage(file.data);
	if (detected === null)
		throw badRequest('file', `${file.filename} is not a real image`, 'not_an_image');
	if (detected !== contentType) {
		throw badRequest(
			'file',
			`${file.filename} holds ${detected} data, not ${contentType}`,
			'content_type_mismatch',
		);
	}
	const { store } = ctx.state;
	const fileId = randomUUID();
	store.files.set(fileId, {
		data: file.data,
		contentType,
		filename: sanitizeFilename(file.filename),
	});
	if (contact.photoFileId) store.files.delete(contact.photoFileId);
	return ok(
		renderContact(ctx, commitContact(ctx.state, contact, { ...contact, photoFileId: fileId })),
	);
}

/** DELETE /v1/contacts/{id}/photo: idempotent, 200 with the Contact (photoWritesReturnContact). */
export function deleteContactPhoto(ctx: ApiContext): Reply {
	const contact = pathContact(ctx);
	if (!contact.photoFileId) return ok(renderContact(ctx, contact));
	ctx.state.store.files.delete(contact.photoFileId);
	return ok(
		renderContact(ctx, commitContact(ctx.state, contact, { ...contact, photoFileId: null })),
	);
}
