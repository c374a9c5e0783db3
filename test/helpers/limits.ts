/**
 * The transport's limits and waits, shrunk for the calling describe block (a test file, or a part
 * of one: test/helpers/parts.ts) and put back after its last test. The package reads both objects
 * at the moment of use, so the values hold from the block's first test.
 *
 * - `withLimits(overrides)`: TRANSPORT_LIMITS (nodes/shared/transport/limits.ts), so that hostile
 *   answers end in milliseconds: a cap of a megabyte instead of 16 MB, a deadline of a fraction
 *   of a second instead of a minute.
 * - `withRetry(overrides)`: RETRY's backoffs (nodes/shared/transport/retry.ts), so that a test of
 *   what is repeated, how often and with what error does not wait seconds between tries. The
 *   waits themselves are checked at their real length in test/transport/retry.ts ("GET requests
 *   are repeated on transient failures").
 */
import { TRANSPORT_LIMITS } from '../../nodes/shared/transport/limits';
import { RETRY } from '../../nodes/shared/transport/retry';

type Limits = { -readonly [K in keyof typeof TRANSPORT_LIMITS]: number };
type RetryWaits = Pick<
	{ -readonly [K in keyof typeof RETRY]: number },
	'backoffBaseMs' | 'rateLimitBaseMs'
>;

export function withLimits(overrides: Partial<Limits>): Readonly<Limits> {
	shrunk(TRANSPORT_LIMITS, overrides);
	return TRANSPORT_LIMITS;
}

/** Backoffs of milliseconds, unless told otherwise. */
export function withRetry(
	overrides: Partial<RetryWaits> = { backoffBaseMs: 10, rateLimitBaseMs: 20 },
): void {
	shrunk(RETRY, overrides);
}

function shrunk<T extends object>(values: T, overrides: Partial<Record<keyof T, number>>): void {
	// Saved when the block starts, so a block inside another gives back the outer block's values.
	let saved: T = { ...values };
	beforeAll(() => {
		saved = { ...values };
		Object.assign(values, overrides);
	});
	afterAll(() => Object.assign(values, saved));
}
