/**
 * Signed links need no credential, so they are fetched without the key: the
 * sandbox logs a null key for every /files/ request, and a scripted host (a
 * host that is not the API) sees no Authorization header. Also: API output
 * never carries the key. The steps of a download (`signedLinkTarget`,
 * `fileNameOf`) are checked on their own, then answers as another helper may
 * hand them back (a whole body, none, no headers).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	downloadSignedLink,
	fileNameOf,
	signedLinkTarget,
} from '../../nodes/shared/transport/download';
import { DOWNLOAD_MAX_BYTES } from '../../nodes/shared/rules/links';
import { paginate } from '../../nodes/shared/transport/pages';
import { SANDBOX_KEYS, withSandbox } from '../helpers/n8n';
import { downloadThrough, drain, expectNoSecret, failureOf, inNode, TEST_NODE } from './context';
import { startFakeApi } from './fake-api';

export function signedLinks(): void {
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
			// The host stands for the API's own file host on this machine: the Base URL's address.
			const credentials = sandbox.credentials('acmeOwner', { baseUrl: host.baseUrl });
			const file = await inNode(credentials, async function () {
				return await downloadSignedLink.call(
					this,
					`${host.baseUrl}/signed/photo%20one.jpg?sig=abc`,
				);
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

	it('reads the file name from Content-Disposition (filename*, RFC 6266), and the type from Content-Type without its parameters', async () => {
		const host = await startFakeApi({
			status: 200,
			text: 'x',
			headers: {
				'Content-Type': 'application/pdf ; charset=binary',
				'Content-Disposition': "attachment; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf",
			},
		});
		try {
			const credentials = sandbox.credentials('acmeOwner', { baseUrl: host.baseUrl });
			const file = await inNode(credentials, async function () {
				return await downloadSignedLink.call(this, `${host.baseUrl}/f/abc`);
			});
			expect(file).toMatchObject({ fileName: 'Résumé.pdf', mimeType: 'application/pdf' });
		} finally {
			await host.close();
		}
	});

	it('explains an expired link: the server says so, and the hint says to fetch the record again', async () => {
		const link = await inNode(sandbox.credentials(), async function () {
			const attachments = await drain(
				paginate.call(this, 'listAttachments', { query: { kind: 'document' } }),
			);
			return String(attachments.find((a) => typeof a.url === 'string')?.url);
		});
		await sandbox.control.advanceClock(2 * 3_600_000);
		try {
			const error = await failureOf(sandbox.credentials(), async function () {
				return await downloadSignedLink.call(this, link);
			});
			expect(error.message).toBe(
				'The link has expired; fetch the record again for a fresh link (HTTP 410)',
			);
			expect(error.description).toMatch(/valid for 1 hour; fetch the record again/);
			expect((await sandbox.control.requests({ pathPrefix: '/files/' })).count).toBe(1);
		} finally {
			await sandbox.control.setClock(new Date().toISOString());
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

	describe('the steps of a download', () => {
		it('signedLinkTarget: a record without a link fails naming it; plain http only to this machine', () => {
			expect(() => signedLinkTarget(TEST_NODE, null)).toThrow('There is no file to download');
			expect(() => signedLinkTarget(TEST_NODE, '  ')).toThrow('There is no file to download');
			expect(() => signedLinkTarget(TEST_NODE, 'http://files.example.com/x.pdf')).toThrow(
				'The signed link must use https, not plain http',
			);
			expect(signedLinkTarget(TEST_NODE, 'https://files.example.com/x.pdf?sig=1').href).toBe(
				'https://files.example.com/x.pdf?sig=1',
			);
		});

		it('fileNameOf: filename* first, then filename, then the last segment of the path', () => {
			const url = new URL('https://files.example.com/signed/photo%20one.jpg?sig=abc');
			expect(
				fileNameOf('attachment; filename*=UTF-8\'\'R%C3%A9sum%C3%A9.pdf; filename="x.pdf"', url),
			).toBe('Résumé.pdf');
			expect(fileNameOf('attachment; filename="report.pdf"', url)).toBe('report.pdf');
			expect(fileNameOf(undefined, url)).toBe('photo one.jpg');
			expect(fileNameOf(undefined, new URL('https://files.example.com/'))).toBeUndefined();
			expect(fileNameOf('attachment; filename="100%.pdf"', url)).toBe('100%.pdf');
		});
	});

	/**
	 * n8n's helper hands a download's body back as a stream, with headers. The download reads
	 * what another helper may hand back too: a whole body, no body, no headers.
	 */
	describe('answers as a helper may hand them back', () => {
		const ANY_LINK = () => `${sandbox.baseUrl}/files/any.pdf`;
		const underCap = Buffer.from('%PDF-1.4 whole');

		const downloadAnswered = async (answer: IDataObject) =>
			await downloadThrough(sandbox.credentials(), ANY_LINK(), async () => answer);

		it.each<[string, IDataObject, string | undefined]>([
			['a whole body', { statusCode: 200, headers: {}, body: underCap }, '%PDF-1.4 whole'],
			['no body at all', { statusCode: 200, headers: {} }, ''],
			['no headers', { statusCode: 200, body: underCap }, '%PDF-1.4 whole'],
		])('%s is read as the file', async (_what, answer, text) => {
			const { value, error } = await downloadAnswered(answer);
			expect(error).toBeUndefined();
			expect(value).toMatchObject({ fileName: 'any.pdf', mimeType: undefined });
			expect(value?.data.toString()).toBe(text);
		});

		it('a whole body over the cap is refused like a streamed one', async () => {
			const over = Buffer.alloc(DOWNLOAD_MAX_BYTES + 1);
			const { error } = await downloadAnswered({ statusCode: 200, headers: {}, body: over });
			expect(error?.message).toBe('The file is larger than 25 MB, the most a download reads');
			const atCap = Buffer.alloc(DOWNLOAD_MAX_BYTES);
			const file = await downloadAnswered({ statusCode: 200, headers: {}, body: atCap });
			expect(file.value?.data.length).toBe(DOWNLOAD_MAX_BYTES);
		});

		it('a whole error body is the error, as a streamed one is', async () => {
			const body = Buffer.from(JSON.stringify({ error: { message: 'Link has expired' } }));
			const { error } = await downloadAnswered({ statusCode: 410, headers: {}, body });
			expect(JSON.stringify(error)).toContain('Link has expired');
		});

		it('Stop during the wait between tries sends no further request', async () => {
			const stop = new AbortController();
			let requests = 0;
			const { error } = await downloadThrough(
				sandbox.credentials(),
				ANY_LINK(),
				async () => {
					requests++;
					// Stopped while the download waits (at least 125 ms) to try again.
					setTimeout(() => stop.abort(), 20);
					return { statusCode: 503, headers: {}, body: Buffer.from('busy') };
				},
				stop,
			);
			expect(error?.message).toBe('The download was stopped');
			expect(requests).toBe(1);
		});
	});
}
