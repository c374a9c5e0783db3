/**
 * `withLimits(overrides)`: the transport's limits (TRANSPORT_LIMITS in
 * nodes/shared/transport/limits.ts), shrunk for the calling test file so that
 * hostile answers end in milliseconds: a cap of a megabyte instead of 16 MB, a
 * deadline of a fraction of a second instead of a minute. The package reads
 * the object at the moment of use, so the values hold from the file's first
 * test and are put back after its last. Each test file runs in its own module
 * registry, so no other file sees them.
 */
import { TRANSPORT_LIMITS } from '../../nodes/shared/transport/limits';

type Limits = { -readonly [K in keyof typeof TRANSPORT_LIMITS]: number };

export function withLimits(overrides: Partial<Limits>): Readonly<Limits> {
	const saved = { ...TRANSPORT_LIMITS };
	beforeAll(() => Object.assign(TRANSPORT_LIMITS, overrides));
	afterAll(() => Object.assign(TRANSPORT_LIMITS, saved));
	return TRANSPORT_LIMITS;
}
