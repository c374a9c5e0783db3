/**
 * Dates are normalised, not refused: what n8n's date picker and expressions
 * produce (a Luxon DateTime, a JS Date, ISO text with a T or a space) becomes
 * the ISO 8601 text the API reads. A time without an offset is read in the
 * workflow's timezone. Anything else is returned as it came, so the rule that
 * checks the field refuses it and names it.
 */
import { isCalendarDate, parseTimestamp } from './formats';

/** A Luxon DateTime, recognised by its marker: the package does not depend on Luxon. */
const isLuxonDateTime = (value: unknown): value is { toMillis(): number } =>
	typeof value === 'object' &&
	value !== null &&
	(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true &&
	typeof (value as { toMillis?: unknown }).toMillis === 'function';

/** Date, then T or one space, then the time, then an optional zone (Z, ±HH, ±HHMM, ±HH:MM). */
const DATE_TIME =
	/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function wallClock(ms: number, timeZone: string) {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(ms));
	const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
	return {
		date: `${part('year')}-${part('month')}-${part('day')}`,
		asUtc: Date.parse(
			`${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}Z`,
		),
	};
}

/** How far `timeZone` is ahead of UTC at the instant `ms`. */
const offsetAt = (ms: number, timeZone: string) =>
	wallClock(ms, timeZone).asUtc - (ms - (((ms % 1000) + 1000) % 1000));

/** The instant at which the clocks of `timeZone` show `wall` (given as if it were UTC). */
function instantOf(wall: number, timeZone: string): number {
	const guess = wall - offsetAt(wall, timeZone);
	return wall - offsetAt(guess, timeZone);
}

/** Milliseconds since the epoch of a picked or computed date-time, or undefined for anything else. */
function instant(value: unknown, timeZone: string): number | undefined {
	if (isLuxonDateTime(value)) return value.toMillis();
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
	if (typeof value !== 'string') return undefined;
	const match = DATE_TIME.exec(value.trim());
	if (!match) return undefined;
	const [, date, time, zone] = match;
	if (zone) {
		const offset = /^[+-]\d{2}$/.test(zone) ? `${zone}:00` : zone;
		return parseTimestamp(`${date}T${time}${offset}`) ?? undefined;
	}
	const wall = parseTimestamp(`${date}T${time}Z`);
	return wall === null ? undefined : instantOf(wall, timeZone);
}

/**
 * A timestamp filter (`updated_since`, `from`, `to`) as sent: a date-time
 * becomes ISO 8601 in UTC; a bare date (YYYY-MM-DD) is sent as it is, since
 * the API takes a date as well as a timestamp.
 */
export function toWireTimestamp(value: unknown, timeZone: string): unknown {
	if (typeof value === 'string' && isCalendarDate(value.trim())) return value.trim();
	const ms = instant(value, timeZone);
	// Whole seconds are written without a fraction: 2024-05-01T08:00:00Z.
	if (ms !== undefined) return new Date(ms).toISOString().replace('.000Z', 'Z');
	return typeof value === 'string' ? value.trim() : value;
}

/** A date field (`birthday`) as sent: YYYY-MM-DD, a date-time giving its calendar date in the workflow's timezone. */
export function toWireDate(value: unknown, timeZone: string): unknown {
	if (typeof value === 'string' && isCalendarDate(value.trim())) return value.trim();
	const ms = instant(value, timeZone);
	if (ms !== undefined) return wallClock(ms, timeZone).date;
	return typeof value === 'string' ? value.trim() : value;
}
