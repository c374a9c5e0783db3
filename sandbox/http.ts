import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a handler answers; the server writes it (or a fault replaces it). */
export interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** A non-JSON body (signed-link downloads). */
	raw?: { data: Buffer; contentType: string };
}

/** errorBodyShapes: every error answers {"error": {"code", "message", "param"}}. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly param: string | null = null,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export const badRequest = (param: string | null, message: string, code = 'invalid_parameter') =>
	new ApiError(400, code, message, param);

export const notFound = (what: string, id: string, param: string | null) =>
	new ApiError(404, 'not_found', `No ${what} with id ${id}`, param);

export function errorReply(error: ApiError): Reply {
	return {
		status: error.status,
		headers: error.headers,
		body: { error: { code: error.code, message: error.message, param: error.param } },
	};
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });

export function writeReply(res: ServerResponse, reply: Reply): void {
	if (reply.raw) {
		res.writeHead(reply.status, {
			...reply.headers,
			'Content-Type': reply.raw.contentType,
			'Content-Length': reply.raw.data.length,
		});
		res.end(reply.raw.data);
		return;
	}
	const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
	res.writeHead(reply.status, {
		...reply.headers,
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

const MAX_JSON_BYTES = 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_JSON_BYTES)
			throw new ApiError(413, 'payload_too_large', 'The JSON body is over 1 MB', 'body');
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): unknown {
	try {
		return JSON.parse(raw.toString('utf8')) as unknown;
	} catch {
		throw badRequest('body', 'The request body is not valid JSON', 'invalid_body');
	}
}

/** Reads a JSON request body; a non-JSON type, an oversized or malformed body is a 400 naming `body`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
	const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	if (type !== 'application/json') {
		throw badRequest(
			'body',
			'The request body must be JSON (Content-Type: application/json)',
			'invalid_body',
		);
	}
	return parseJson(await readBody(req));
}

/** Control-API bodies: a JSON object, or nothing (an empty object). */
export async function readOptionalJson(req: IncomingMessage): Promise<Record<string, unknown>> {
	const raw = await readBody(req);
	if (raw.length === 0) return {};
	const body = parseJson(raw);
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw badRequest('body', 'The request body must be a JSON object', 'invalid_body');
	}
	return body as Record<string, unknown>;
}
