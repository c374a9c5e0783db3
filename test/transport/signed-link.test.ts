/**
 * Signed links (A16) are fetched without the key: the sandbox logs a null key
 * for every /files/ request, and a scripted host sees no Authorization header.
 * Also: API output never carries the key.
 */
import type { IDataObject } from 'n8n-workflow';

import { downloadSignedLink, paginate } from '../../nodes/shared/transport';
import { SANDBOX_KEYS, withSandbox } from '../helpers/n8n';
import { drain, failureOf, inNode } from './context';
import { expectNoSecret, startFakeApi } from './fake-api';

const sandbox = withSandbox();

it('downloads an attachment by its signed url without sending the key', async () => {
	const { attachment, file } = await inNode(sandbox.credentials(), async function () {
		const attachments = await drain(
			paginate.call(this, 'listAttachments', { query: { kind: 'document' } }),
		);
		const withFile = attachments.find((a) => typeof a.url === 'string') as IDataObject;
		return {
			attachment: withFile,
			file: await downloadSignedLink.call(this, String(withFile.url)),
		};
	});
	expect(file.data.length).toBe(attachment.size_bytes);
	expect(file.mimeType).toBe(attachment.content_type);
	expect(file.fileName).toBe(attachment.filename);
	const downloads = (await sandbox.control.requests({ pathPrefix: '/files/' })).data;
	expect(downloads).toHaveLength(1);
	expect(downloads[0].key).toBeNull();
	expect(
		(await sandbox.control.requests({ pathPrefix: '/v1/' })).data.every(
			(r) => r.key === SANDBOX_KEYS.acmeOwner,
		),
	).toBe(true);
});

it('sends no Authorization header to a signed-link host and names the file from the URL', async () => {
	const host = await startFakeApi({
		status: 200,
		text: 'photo-bytes',
		headers: { 'Content-Type': 'image/jpeg' },
	});
	try {
		const file = await inNode(sandbox.credentials(), async function () {
			return await downloadSignedLink.call(this, `${host.baseUrl}/signed/photo%20one.jpg?sig=abc`);
		});
		expect(file).toEqual({
			data: Buffer.from('photo-bytes'),
			mimeType: 'image/jpeg',
			fileName: 'photo one.jpg',
		});
		expect(host.requests).toHaveLength(1);
		expect(host.requests[0].headers.authorization).toBeUndefined();
		expect(JSON.stringify(host.requests[0].headers)).not.toContain(SANDBOX_KEYS.acmeOwner);
	} finally {
		await host.close();
	}
});

it('reads the file name from Content-Disposition and explains an expired link', async () => {
	const host = await startFakeApi();
	try {
		host.answer(
			{
				status: 200,
				text: 'x',
				headers: {
					'Content-Type': 'application/pdf',
					'Content-Disposition': "attachment; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf",
				},
			},
			{ status: 403, body: { error: { code: 'expired', message: 'Link expired' } } },
		);
		const file = await inNode(sandbox.credentials(), async function () {
			return await downloadSignedLink.call(this, `${host.baseUrl}/f/abc`);
		});
		expect(file.fileName).toBe('Résumé.pdf');
		const error = await failureOf(sandbox.credentials(), async function () {
			return await downloadSignedLink.call(this, `${host.baseUrl}/f/abc`);
		});
		expect(error.message).toBe('Link expired (HTTP 403)');
		expect(error.description).toMatch(/valid for 1 hour; fetch the record again/);
	} finally {
		await host.close();
	}
});

it('refuses a plain-http signed link that is not loopback', async () => {
	const error = await failureOf(sandbox.credentials(), async function () {
		return await downloadSignedLink.call(this, 'http://files.example.com/x.pdf');
	});
	expect(error.message).toBe('The signed link must use https, not plain http');
});

it('no output of a full read carries the key', async () => {
	const everything = await inNode(sandbox.credentials(), async function () {
		const contacts = await drain(paginate.call(this, 'listContacts', {}));
		const inspections = await drain(paginate.call(this, 'listInspections', { max: 50 }));
		return { contacts, inspections };
	});
	expectNoSecret(everything, SANDBOX_KEYS.acmeOwner);
});
