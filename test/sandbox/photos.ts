/** Contact photos: types, content-type match, real images, 10 MB (413), replace, idempotent delete (photoWritesReturnContact), signed links (signedLinksWithoutKey). */
import { SAMPLE_FILES } from '../../sandbox/samples';
import { expectError, file, type Json, useSandbox } from './support';

export function photos(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	const MB = 1024 * 1024;
	let contact: Json;

	beforeEach(async () => {
		contact = (
			await api().post('/v1/contacts', { first_name: 'Pic', email: `pic${Date.now()}@example.com` })
		).body;
	});
	const upload = (form: FormData, id = contact.id) =>
		api().upload(`/v1/contacts/${id}/photo`, form);

	describe('upload', () => {
		it.each([
			['jpg', 'image/jpeg', SAMPLE_FILES.jpg],
			['jpeg', 'image/jpeg', SAMPLE_FILES.jpg],
			['png', 'image/png', SAMPLE_FILES.png],
			['gif', 'image/gif', SAMPLE_FILES.gif],
			['webp', 'image/webp', SAMPLE_FILES.webp],
		])(
			'takes a real .%s image and answers 200 with the contact (photoWritesReturnContact)',
			async (ext, type, data) => {
				const res = await upload(file(data, `face.${ext}`, type));
				expect(res.status).toBe(200);
				expect(res.body.id).toBe(contact.id);
				expect(res.body.photo_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
				const served = await fetch(res.body.photo_url);
				expect(served.status).toBe(200);
				expect(served.headers.get('content-type')).toBe(type);
				expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
			},
		);

		it('refuses other file types', async () => {
			expectError(await upload(file(SAMPLE_FILES.pdf, 'face.pdf', 'application/pdf')), 400, 'file');
			expectError(await upload(file(SAMPLE_FILES.png, 'face.bmp', 'image/bmp')), 400, 'file');
			expectError(await upload(file(SAMPLE_FILES.png, 'face', 'image/png')), 400, 'file');
		});

		it('refuses a content type that does not match the extension', async () => {
			expectError(await upload(file(SAMPLE_FILES.jpg, 'face.jpg', 'image/png')), 400, 'file');
			expectError(
				await upload(file(SAMPLE_FILES.png, 'face.png', 'application/octet-stream')),
				400,
				'file',
			);
		});

		it('refuses bytes that are not a real image, or another image than the name says', async () => {
			const fake = await upload(file('definitely not a png', 'face.png', 'image/png'));
			expectError(fake, 400, 'file');
			expect(fake.body.error.code).toBe('not_an_image');
			expectError(
				await upload(file(Buffer.from('RIFF0000WAVEfmt '), 'face.webp', 'image/webp')),
				400,
				'file',
			);
			expectError(await upload(file(SAMPLE_FILES.png, 'face.jpg', 'image/jpeg')), 400, 'file');
			expect((await api().get(`/v1/contacts?ids=${contact.id}`)).body.data[0].photo_url).toBeNull();
		});

		it('answers 413 for a file over 10 MB, and takes one of exactly 10 MB', async () => {
			const big = Buffer.alloc(10 * MB + 1);
			SAMPLE_FILES.jpg.copy(big);
			expectError(await upload(file(big, 'big.jpg', 'image/jpeg')), 413, 'file');
			expect((await upload(file(big.subarray(0, 10 * MB), 'ok.jpg', 'image/jpeg'))).status).toBe(
				200,
			);
		});

		it('stops reading at the limit: a 40 MB upload is refused before it is all received', async () => {
			const huge = Buffer.alloc(40 * MB);
			SAMPLE_FILES.png.copy(huge);
			const res = await upload(file(huge, 'huge.png', 'image/png'));
			expectError(res, 413, 'file');
			const logged = (
				await sandbox.control.requests({
					method: 'POST',
					pathPrefix: `/v1/contacts/${contact.id}/photo`,
				})
			).data.at(-1);
			expect(logged?.form?.files[0].size).toBeLessThan(11 * MB);
		});

		it('requires the file, in the field named file', async () => {
			const none = new FormData();
			expectError(await upload(none), 400, 'file');
			expectError(
				await upload(file(SAMPLE_FILES.png, 'face.png', 'image/png', {}, 'photo')),
				400,
				'photo',
			);
			expectError(
				await upload(file(SAMPLE_FILES.png, 'face.png', 'image/png', { caption: 'me' })),
				400,
				'caption',
			);
			expectError(
				await api().request('POST', `/v1/contacts/${contact.id}/photo`, { json: { file: 'x' } }),
				400,
				'body',
			);
		});

		it('replaces the old photo: the old link stops working, updated_at moves', async () => {
			const first = (await upload(file(SAMPLE_FILES.png, 'a.png', 'image/png'))).body;
			await sandbox.control.advanceClock(1000);
			const second = (await upload(file(SAMPLE_FILES.gif, 'b.gif', 'image/gif'))).body;
			expect(second.photo_url).not.toBe(first.photo_url);
			expect(second.updated_at > first.updated_at).toBe(true);
			expect((await fetch(first.photo_url)).status).toBe(404);
			expect((await fetch(second.photo_url)).headers.get('content-type')).toBe('image/gif');
		});
	});

	describe('delete', () => {
		it('removes the photo and answers 200 with photo_url null, again and again (photoWritesReturnContact)', async () => {
			const withPhoto = (await upload(file(SAMPLE_FILES.png, 'a.png', 'image/png'))).body;
			const first = await api().delete(`/v1/contacts/${contact.id}/photo`);
			expect(first.status).toBe(200);
			expect(first.body).toMatchObject({ id: contact.id, photo_url: null });
			expect((await fetch(withPhoto.photo_url)).status).toBe(404);
			const again = await api().delete(`/v1/contacts/${contact.id}/photo`);
			expect(again.status).toBe(200);
			expect(again.body).toEqual(first.body);
		});
	});

	describe('signed links (signedLinksWithoutKey)', () => {
		it('are served without a key, and the request log shows none was sent', async () => {
			const url = (await upload(file(SAMPLE_FILES.png, 'a.png', 'image/png'))).body
				.photo_url as string;
			await sandbox.control.clearRequests();
			expect((await fetch(url)).status).toBe(200);
			const [entry] = (await sandbox.control.requests({ pathPrefix: '/files/' })).data;
			expect(entry).toMatchObject({ method: 'GET', status: 200, key: null });
		});

		it('refuse a changed signature or expiry with 403', async () => {
			const url = new URL(
				(await upload(file(SAMPLE_FILES.png, 'a.png', 'image/png'))).body.photo_url,
			);
			const tampered = new URL(url);
			tampered.searchParams.set(
				'expires',
				String(Number(url.searchParams.get('expires')) + 3_600_000),
			);
			expect((await fetch(tampered)).status).toBe(403);
			const unsigned = new URL(url);
			unsigned.searchParams.delete('sig');
			expect((await fetch(unsigned)).status).toBe(403);
		});

		it('expire after one hour of sandbox time (410); a fresh read gives a working link', async () => {
			const url = (await upload(file(SAMPLE_FILES.png, 'a.png', 'image/png'))).body
				.photo_url as string;
			await sandbox.control.advanceClock(59 * 60_000);
			expect((await fetch(url)).status).toBe(200);
			await sandbox.control.advanceClock(2 * 60_000);
			expect((await fetch(url)).status).toBe(410);
			const fresh = (await api().get(`/v1/contacts?ids=${contact.id}`)).body.data[0].photo_url;
			expect((await fetch(fresh)).status).toBe(200);
		});
	});
}
