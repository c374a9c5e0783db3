/**
 * Hostile mode: an API, its signed links and a webhook sender that attack the
 * package instead of serving it, one route per fault under `/_hostile/`, for
 * the tests of what the package refuses (docs/reliability.md, "A hostile API,
 * link or sender"). The real API never answers so; each route shows what a
 * broken or malicious server, a record's text or a forged sender could do.
 * No key is checked; every request is logged like any other.
 *
 * A Base URL of `<sandbox>/_hostile/<fault>` sends every API request of a
 * credential to that fault (as `/_redirect/<port>` does):
 *
 * - `endless-pages`: every list page is empty, with a new next_cursor;
 * - `repeated-pages`: every page holds the same three records, with a new next_cursor;
 * - `overfull-pages`: every page holds one new record, with a new next_cursor,
 *   while `total` says the list has 2;
 * - `deep-error`: every request is answered 400 in the API's error shape, its
 *   `details` nested DEEP_ERROR_LEVELS levels deep;
 * - `inside-links[/<port>]`: every list holds attachments whose signed links
 *   point inside the user's network (insideLinks), `<port>` standing for
 *   n8n's own (5678 when left out);
 * - answers without end, in bytes, time, pages or 429s (`gzip-bomb`,
 *   `huge-answer`, `drip-answer`, `fresh-pages`, `rate-limited`):
 *   ./hostile-answers.ts.
 *
 * Signed links and senders, each at its own path:
 *
 * - `slow-file?bytes=&every_ms=`: a file that arrives one byte every
 *   `every_ms` (500) ms, `bytes` (1,000) of them;
 * - `file-name?name=`: a small file whose Content-Disposition names it `name`;
 * - `subdomain/<path>`: 307 to `<path>` on the subdomain `api.` of the host
 *   it was asked on, same port (a redirect the key must not follow);
 * - `canary`: any address of this machine the package must never reach; its
 *   requests show in the log;
 * - `POST deliveries {url, secret?, header?, count?, id_bytes?, event?, record_id?}`:
 *   sends `count` webhook deliveries whose delivery ids are `id_bytes` long
 *   to `url` (loopback callers only).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { isLoopback } from './control';
import { serveHostileAnswer } from './hostile-answers';
import { ApiError, errorReply, ok, readOptionalJson, writeReply, type Reply } from './http';

export const HOSTILE_PREFIX = '/_hostile/';

/** How deep the deep error's `details` nest: enough to overflow any recursive walk. */
export const DEEP_ERROR_LEVELS = 200_000;

/** The message the deep error carries, which the package must still show. */
export const DEEP_ERROR_MESSAGE = 'limit must be at most 200 (hostile deep error)';

let served = 0;
/** A cursor never handed out before (in this process). */
const freshCursor = () => `hostile-${++served}`;
/** A UUID-shaped id never handed out before (in this process). */
const freshId = () => `00000000-0000-4000-8000-${String(++served).padStart(12, '0')}`;

const record = (id: string) => ({
	id,
	first_name: 'Hostile',
	last_name: id.slice(-4),
	created_at: '2026-01-01T00:00:00Z',
	updated_at: '2026-01-01T00:00:00Z',
});

const REPEATED = ['1', '2', '3'].map((n) => record(`00000000-0000-4000-8000-00000000000${n}`));

/** The signed links `inside-links` hands out: each names a place inside the user's network. */
export function insideLinks(n8nPort: number, sandboxPort: number): string[] {
	return [
		'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
		'https://10.0.0.5/files/report.pdf',
		`http://127.0.0.1:${n8nPort}/rest/settings`,
		'http://[::1]:2375/containers/json',
		`http://localhost:${sandboxPort}${HOSTILE_PREFIX}canary`,
		// Inside a provider's network (Alibaba Cloud's metadata service), and the unspecified address.
		'https://100.100.100.200/latest/meta-data/',
		'https://[::]/files/report.pdf',
	];
}

const attachment = (url: string, index: number) => ({
	id: `00000000-0000-4000-9000-00000000000${index}`,
	inspection_id: '00000000-0000-4000-a000-000000000001',
	kind: 'document',
	name: `Inside ${index}`,
	filename: `inside-${index}.pdf`,
	content_type: 'application/pdf',
	size_bytes: 1000,
	url,
	created_at: '2026-01-01T00:00:00Z',
});

function deepError(): Reply {
	// Written as text: the sandbox's own JSON.stringify would overflow on it.
	const details = `${'['.repeat(DEEP_ERROR_LEVELS)}${']'.repeat(DEEP_ERROR_LEVELS)}`;
	const head = JSON.stringify({
		code: 'invalid_parameter',
		message: DEEP_ERROR_MESSAGE,
		param: 'limit',
	});
	const text = `{"error":${head.slice(0, -1)},"details":${details}}}`;
	return { status: 400, raw: { data: Buffer.from(text), contentType: 'application/json' } };
}

/** The answer of a hostile API (a Base URL of `/_hostile/<fault>`), or undefined for another fault. */
function apiAnswer(fault: string, rest: string[], sandboxPort: number): Reply | undefined {
	switch (fault) {
		case 'endless-pages':
			return ok({ data: [], next_cursor: freshCursor(), total: 0 });
		case 'repeated-pages':
			return ok({ data: REPEATED, next_cursor: freshCursor(), total: REPEATED.length });
		case 'overfull-pages':
			return ok({ data: [record(freshId())], next_cursor: freshCursor(), total: 2 });
		case 'deep-error':
			return deepError();
		case 'inside-links': {
			const port = /^\d+$/.test(rest[0] ?? '') ? Number(rest[0]) : 5678;
			const data = insideLinks(port, sandboxPort).map(attachment);
			return ok({ data, next_cursor: null, total: data.length });
		}
		default:
			return undefined;
	}
}

/** Writes `bytes` bytes, one every `everyMs`, until done or the client goes away. */
function drip(res: ServerResponse, bytes: number, everyMs: number): void {
	res.writeHead(200, {
		'Content-Type': 'application/pdf',
		'Content-Length': String(bytes),
		'Content-Disposition': 'attachment; filename="slow.pdf"',
	});
	let sent = 0;
	const timer = setInterval(() => {
		if (res.destroyed || sent >= bytes) {
			clearInterval(timer);
			if (!res.destroyed) res.end();
			return;
		}
		res.write(Buffer.from('%'));
		sent++;
	}, everyMs);
	res.on('close', () => clearInterval(timer));
}

const number = (url: URL, name: string, fallback: number) => {
	const value = Number(url.searchParams.get(name) ?? fallback);
	return Number.isInteger(value) && value > 0 ? value : fallback;
};

/** A file whose Content-Disposition names it as the query says. */
function namedFile(url: URL): Reply {
	const name = url.searchParams.get('name') ?? '';
	return {
		status: 200,
		headers: { 'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` },
		raw: { data: Buffer.from('%PDF-1.4 hostile\n'), contentType: 'application/pdf' },
	};
}

/** 307 to the same path on the subdomain `api.` of the host the request named, same port. */
function toSubdomain(req: IncomingMessage, rest: string[], url: URL): Reply {
	const host = req.headers.host ?? '127.0.0.1';
	return {
		status: 307,
		headers: { Location: `http://api.${host}/${rest.join('/')}${url.search}` },
	};
}

interface DeliveryRequest {
	url: string;
	secret?: string;
	header?: string;
	count?: number;
	id_bytes?: number;
	event?: string;
	record_id?: string;
}

/** Sends deliveries with huge ids one after another; answers each one's status. */
async function sendDeliveries(req: IncomingMessage): Promise<Reply> {
	if (!isLoopback(req.socket.remoteAddress))
		throw new ApiError(403, 'forbidden', 'Hostile deliveries answer loopback callers only');
	const body = (await readOptionalJson(req)) as Partial<DeliveryRequest>;
	if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))
		throw new ApiError(400, 'invalid_parameter', 'url must be an http(s) URL', 'url');
	const count = Math.min(Math.max(Number(body.count ?? 1), 1), 1000);
	const idBytes = Math.min(Math.max(Number(body.id_bytes ?? 1024 * 1024), 1), 16 * 1024 * 1024);
	const statuses: number[] = [];
	for (let index = 0; index < count; index++) {
		const id = `${index}-`.padEnd(idBytes, 'x');
		const payload = JSON.stringify({
			id,
			event: body.event ?? 'contact.changed',
			occurred_at: new Date().toISOString(),
			data: { id: body.record_id ?? '00000000-0000-4000-8000-000000000001' },
		});
		const headers: Record<string, string> = { 'Content-Type': 'application/json' };
		if (body.secret) headers[body.header ?? 'X-Webhook-Secret'] = body.secret;
		const answer = await fetch(body.url, {
			method: 'POST',
			headers,
			body: payload,
			signal: AbortSignal.timeout(60_000),
		});
		await answer.arrayBuffer();
		statuses.push(answer.status);
	}
	return ok({ sent: statuses.length, statuses });
}

/**
 * Serves a path under HOSTILE_PREFIX. Most answers are Replies; the slow file
 * is written here, byte by byte, and the deliveries are sent before answering.
 */
export async function handleHostile(
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	sandboxPort: number,
): Promise<void> {
	const [fault = '', ...rest] = url.pathname.slice(HOSTILE_PREFIX.length).split('/');
	if (fault === 'slow-file')
		return drip(res, number(url, 'bytes', 1000), number(url, 'every_ms', 500));
	if (await serveHostileAnswer(res, fault, rest)) return;
	const reply =
		(fault === 'deliveries' && req.method === 'POST' ? await sendDeliveries(req) : undefined) ??
		(fault === 'file-name' ? namedFile(url) : undefined) ??
		(fault === 'subdomain' ? toSubdomain(req, rest, url) : undefined) ??
		(fault === 'canary' ? ok({ reached: true }) : undefined) ??
		apiAnswer(fault, rest, sandboxPort) ??
		errorReply(new ApiError(404, 'not_found', `No hostile route ${url.pathname}`));
	writeReply(res, reply);
}
