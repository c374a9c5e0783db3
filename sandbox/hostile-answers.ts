/**
 * Hostile answers: an API whose answers have no end, in bytes, in time, in
 * pages or in 429s, for the tests of the transport's limits
 * (nodes/shared/transport/limits.ts; docs/reliability.md, "Limits"). A Base
 * URL of `<sandbox>/_hostile/<fault>[/<n>]` sends every API request of a
 * credential to the fault, `<n>` its size:
 *
 * - `gzip-bomb[/<mb>]`: a list page compressed with gzip to a few hundred kB
 *   (600 kB for the default 600 MB) that unpacks to `<mb>` MB;
 * - `huge-answer[/<mb>[/announced]]`: a plain list page of `<mb>` MB (600, over
 *   V8's longest string), streamed; `announced` sends its Content-Length;
 * - `drip-answer[/<ms>]`: the headers of a list page, then a blank every
 *   `<ms>` (1,000) ms, forever (blanks may precede JSON, so it is never wrong,
 *   only never done);
 * - `fresh-pages[/none|huge|growing]`: one new record a page with a new cursor
 *   forever, `total` left out (none, the default), 10^12 (huge) or one more
 *   than the records handed out so far (growing);
 * - `rate-limited[/<s>]`: every request answered 429 with Retry-After `<s>` (1).
 *
 * Each answer stops being written when the client goes away, so a client that
 * stops reading costs the sandbox nothing more.
 */
import type { ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';

const MB = 1024 * 1024;
/** The list page every big answer wraps its padding in: valid JSON, were it ever read whole. */
const PAGE_HEAD = '{"data":[],"next_cursor":null,"total":0,"pad":"';
const PAGE_TAIL = '"}';
const PAD_CHUNK = Buffer.alloc(MB, '0');

/** A whole number from a path segment, within `[1, max]`, or `fallback`. */
function sizeOf(segment: string | undefined, fallback: number, max: number): number {
	const value = Number(segment);
	return Number.isInteger(value) && value >= 1 ? Math.min(value, max) : fallback;
}

/** Writes `chunk`; resolves once the socket takes more, false when the client went away. */
async function written(res: ServerResponse, chunk: Buffer | string): Promise<boolean> {
	if (res.destroyed) return false;
	if (res.write(chunk)) return true;
	return await new Promise((resolve) => {
		const done = (open: boolean) => {
			res.off('drain', drained);
			res.off('close', closed);
			resolve(open);
		};
		const drained = () => done(true);
		const closed = () => done(false);
		res.on('drain', drained);
		res.on('close', closed);
	});
}

/** The padded page of `mb` MB, written a megabyte at a time for as long as the client reads. */
async function writePage(res: ServerResponse, mb: number): Promise<void> {
	if (!(await written(res, PAGE_HEAD))) return;
	for (let sent = 0; sent < mb; sent++) if (!(await written(res, PAD_CHUNK))) return;
	res.end(PAGE_TAIL);
}

const bombs = new Map<number, Promise<Buffer>>();

/** The gzip of a padded page of `mb` MB, made once per size (600 MB: 2 s of CPU, 600 kB). */
async function gzipBomb(mb: number): Promise<Buffer> {
	let bomb = bombs.get(mb);
	if (bomb === undefined) {
		bomb = new Promise<Buffer>((resolve, reject) => {
			const gzip = createGzip({ level: 9 });
			const parts: Buffer[] = [];
			gzip.on('data', (part: Buffer) => parts.push(part));
			gzip.on('end', () => resolve(Buffer.concat(parts)));
			gzip.on('error', reject);
			let fed = 0;
			const feed = () => {
				while (fed < mb) {
					fed++;
					if (!gzip.write(PAD_CHUNK)) return void gzip.once('drain', feed);
				}
				gzip.end(PAGE_TAIL);
			};
			gzip.write(PAGE_HEAD);
			feed();
		});
		bombs.set(mb, bomb);
	}
	return await bomb;
}

/** Blanks, one every `everyMs`, after a list page's headers, until the client goes away. */
function drip(res: ServerResponse, everyMs: number): void {
	res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
	const timer = setInterval(() => {
		if (res.destroyed) clearInterval(timer);
		else res.write(' ');
	}, everyMs);
	res.on('close', () => clearInterval(timer));
}

let handedOut = 0;

/** One page of one new record and a new cursor, `total` as the mode says. */
function freshPage(mode: string | undefined): Record<string, unknown> {
	handedOut++;
	const id = `00000000-0000-4000-b000-${String(handedOut).padStart(12, '0')}`;
	const page: Record<string, unknown> = {
		data: [
			{ id, first_name: 'Fresh', last_name: String(handedOut), updated_at: '2026-01-01T00:00:00Z' },
		],
		next_cursor: `fresh-${handedOut}`,
	};
	if (mode === 'huge') page.total = 1e12;
	if (mode === 'growing') page.total = handedOut + 1;
	return page;
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		...headers,
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

/** Serves `fault` if it is one of these answers; false when it is not. */
export async function serveHostileAnswer(
	res: ServerResponse,
	fault: string,
	rest: string[],
): Promise<boolean> {
	switch (fault) {
		case 'gzip-bomb': {
			const bomb = await gzipBomb(sizeOf(rest[0], 600, 4096));
			res.writeHead(200, {
				'Content-Type': 'application/json; charset=utf-8',
				'Content-Encoding': 'gzip',
				'Content-Length': bomb.length,
			});
			res.end(bomb);
			return true;
		}
		case 'huge-answer': {
			const mb = sizeOf(rest[0], 600, 4096);
			const length = PAGE_HEAD.length + mb * MB + PAGE_TAIL.length;
			res.writeHead(200, {
				'Content-Type': 'application/json; charset=utf-8',
				...(rest[1] === 'announced' ? { 'Content-Length': length } : {}),
			});
			await writePage(res, mb);
			return true;
		}
		case 'drip-answer':
			drip(res, sizeOf(rest[0], 1_000, 60_000));
			return true;
		case 'fresh-pages':
			json(res, 200, freshPage(rest[0]));
			return true;
		case 'rate-limited': {
			const seconds = String(sizeOf(rest[0], 1, 3_600));
			const error = { code: 'rate_limited', message: 'Too many requests (hostile storm)' };
			json(res, 429, { error }, { 'Retry-After': seconds });
			return true;
		}
		default:
			return false;
	}
}
