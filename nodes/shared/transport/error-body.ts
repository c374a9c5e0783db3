/**
 * What an error answer's body becomes in the error a user sees: its JSON (or
 * its text), scrubbed of the API key and kept to a bounded depth and size. A
 * hostile or broken server can answer with JSON nested 200,000 levels deep or
 * megabytes of text; read whole, the first recursive walk (n8n's own error
 * class looks for a message in it, n8n saves it with the execution) overflowed
 * the stack and the status and the API's message were lost. Only the copy
 * made here is handed on, so nothing after it walks more than
 * ERROR_BODY_LIMITS allows.
 */
import { parseJson } from './retry';

/** How much of an error body is kept: levels, entries per list or object, characters per text, values in all. */
export const ERROR_BODY_LIMITS = {
	depth: 8,
	entries: 50,
	textLength: 2_000,
	values: 1_000,
} as const;

/** Replaces the key (and any bearer token) in text; the key is never shown, even in part. */
export function redact(text: string, apiKey: string): string {
	let result = text.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1[redacted]');
	if (apiKey) result = result.split(apiKey).join('[redacted]');
	return result;
}

/** An error answer's body for the error message: its JSON, else its text (both unbounded until `boundedBody`). */
export function errorBody(body: Buffer): unknown {
	const parsed = parseJson(body);
	return parsed.ok ? parsed.value : body.toString('utf8');
}

/** `text` redacted, then cut to ERROR_BODY_LIMITS.textLength (redacted first, so no part of the key is left by the cut). */
function keptText(text: string, apiKey: string): string {
	const clean = redact(text, apiKey);
	const max = ERROR_BODY_LIMITS.textLength;
	return clean.length <= max
		? clean
		: `${clean.slice(0, max)}… (${clean.length - max} more characters)`;
}

interface Walk {
	apiKey: string;
	/** Values that may still be copied. */
	left: number;
}

/** The copy of a list or an object one level down, its extra entries counted instead of kept. */
function copyEntries(value: object, depth: number, walk: Walk): unknown {
	const max = ERROR_BODY_LIMITS.entries;
	if (Array.isArray(value)) {
		const kept = value.slice(0, max).map((entry) => copy(entry, depth + 1, walk));
		if (value.length > max) kept.push(`… (${value.length - max} more entries)`);
		return kept;
	}
	const keys = Object.keys(value);
	const kept: Record<string, unknown> = {};
	for (const key of keys.slice(0, max))
		kept[keptText(key, walk.apiKey)] = copy(
			(value as Record<string, unknown>)[key],
			depth + 1,
			walk,
		);
	if (keys.length > max) kept['…'] = `${keys.length - max} more entries`;
	return kept;
}

/** A bounded, redacted copy of a parsed value (recursion at most ERROR_BODY_LIMITS.depth deep). */
function copy(value: unknown, depth: number, walk: Walk): unknown {
	if (walk.left <= 0) return '…';
	walk.left--;
	if (typeof value === 'string') return keptText(value, walk.apiKey);
	if (value === null || typeof value !== 'object') return value;
	if (depth >= ERROR_BODY_LIMITS.depth)
		return `[nested deeper than ${ERROR_BODY_LIMITS.depth} levels; not kept]`;
	return copyEntries(value, depth, walk);
}

/**
 * An error body as the error keeps it: at most ERROR_BODY_LIMITS.depth levels,
 * entries per level, characters per text and values in all, every text
 * scrubbed of the key. What is cut is said where it was cut.
 */
export function boundedBody(body: unknown, apiKey: string): unknown {
	return copy(body, 0, { apiKey, left: ERROR_BODY_LIMITS.values });
}
