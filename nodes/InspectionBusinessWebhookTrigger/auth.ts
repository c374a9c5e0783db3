/**
 * The API does not show how webhooks are signed (webhookSecret), so a webhook is authentic when it
 * carries the shared secret the user chose (in a header they name, or in the URL's query) and,
 * optionally, an HMAC-SHA256 of the raw body keyed with that secret. Comparisons take the same
 * time however much of the value matches: both sides are hashed to equal length first, then
 * compared with timingSafeEqual.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const digest = (value: string | Buffer) => createHash('sha256').update(value).digest();

/** Constant-time string equality; the lengths leak nothing either, as only digests are compared. */
export function secretsMatch(given: string | undefined, expected: string): boolean {
	if (given === undefined || expected === '') return false;
	return timingSafeEqual(digest(given), digest(expected));
}

/** Reads a signature as hex or base64, with or without a `sha256=` prefix; null when it is neither. */
function signatureBytes(header: string): Buffer | null {
	const value = header.trim().replace(/^sha256=/i, '');
	if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
	if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return Buffer.from(value, 'base64');
	return null;
}

/** Whether `header` is the HMAC-SHA256 of `rawBody` keyed with `secret`. */
export function signatureMatches(
	header: string | undefined,
	rawBody: Buffer | undefined,
	secret: string,
): boolean {
	if (header === undefined || rawBody === undefined || secret === '') return false;
	const given = signatureBytes(header);
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	return (
		given !== null &&
		given.length === expected.length &&
		timingSafeEqual(digest(given), digest(expected))
	);
}

/** A header's single value (names are case-insensitive); a repeated header counts as absent. */
export function headerValue(
	headers: Record<string, string | string[] | undefined>,
	name: string,
): string | undefined {
	const value = headers[name.trim().toLowerCase()];
	return typeof value === 'string' ? value : undefined;
}

/** Why a secret cannot work, or undefined when it can: servers drop spaces around a header's value. */
export function secretProblem(secret: unknown): string | undefined {
	if (typeof secret !== 'string' || secret.trim() === '') return 'The secret is empty';
	if (secret !== secret.trim())
		return 'The secret starts or ends with a space, which a header cannot carry: remove it';
	return undefined;
}
