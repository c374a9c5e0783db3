import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '../nodes/shared/endpoints';
import type { SandboxClock } from './clock';
import { ApiError, type Reply } from './http';
import type { Store } from './store';

export const FILES_PREFIX = '/files/';

/** signedLinksWithoutKey: signed links under /files/…, valid for one hour of sandbox time, needing no key. */
export class LinkSigner {
	private readonly secret = randomBytes(32);

	constructor(private readonly clock: SandboxClock) {}

	private signature(fileId: string, expires: number): string {
		return createHmac('sha256', this.secret).update(`${fileId}:${expires}`).digest('hex');
	}

	/** An absolute link to a stored file, expiring one hour from now. */
	link(origin: string, store: Store, fileId: string | null): string | null {
		if (fileId === null) return null;
		const file = store.files.get(fileId);
		if (!file) return null;
		const expires = this.clock.now() + LIMITS.signedLinkTtlMs;
		const name = encodeURIComponent(file.filename);
		return `${origin}${FILES_PREFIX}${fileId}/${name}?expires=${expires}&sig=${this.signature(fileId, expires)}`;
	}

	/** Serves GET /files/<id>/<name>: a bad signature answers 403, an expired link 410. */
	serve(store: Store, path: string, query: URLSearchParams): Reply {
		const fileId = decodeURIComponent(path.slice(FILES_PREFIX.length).split('/')[0] ?? '');
		const expires = Number(query.get('expires'));
		const given = Buffer.from(query.get('sig') ?? '', 'utf8');
		const expected = Buffer.from(this.signature(fileId, expires), 'utf8');
		if (
			!Number.isFinite(expires) ||
			given.length !== expected.length ||
			!timingSafeEqual(given, expected)
		) {
			throw new ApiError(403, 'invalid_signature', 'The link signature is not valid');
		}
		if (this.clock.now() > expires) {
			throw new ApiError(
				410,
				'link_expired',
				'The link has expired; fetch the record again for a fresh link',
			);
		}
		const file = store.files.get(fileId);
		if (!file) throw new ApiError(404, 'not_found', 'The file no longer exists');
		return {
			status: 200,
			headers: {
				'Content-Disposition': `attachment; filename="${file.filename.replace(/"/g, '')}"`,
			},
			raw: { data: file.data, contentType: file.contentType },
		};
	}
}
