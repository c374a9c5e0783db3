/**
 * Value formats of the API, each stated once: ids, emails, calendar dates,
 * timestamps, country codes, names. Pure predicates; the query, body and file
 * rules call them, and nothing else decides what a valid value is.
 */
import { UUID_PATTERN } from '../endpoints';
import { ISO_COUNTRIES } from './countries';

const UUID = new RegExp(UUID_PATTERN);
/** One @, no spaces or list separators, and a top-level domain of two or more letters. */
const EMAIL = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+\.[A-Za-z]{2,}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** What follows the date in a timestamp: T, hours and minutes, optional seconds and fraction, optional zone. */
const TIME = /^T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A surrogate code unit without its pair (text cut in the middle of an emoji). Valid in JSON and
 * in a JavaScript string, so a record or an expression may carry one, but UTF-8 cannot: a URL
 * cannot hold it as given. Global, for matchAll; `search` ignores its lastIndex.
 */
export const LONE_SURROGATE =
	/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const hasLoneSurrogate = (text: string) => text.search(LONE_SURROGATE) >= 0;

export const isUuid = (value: unknown): value is string =>
	typeof value === 'string' && UUID.test(value);

/** Why a value is not an id, after the value itself. */
export const NOT_AN_ID = 'is not an ID (a UUID such as 3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a)';

export const isEmail = (value: unknown): value is string =>
	typeof value === 'string' && EMAIL.test(value);

/** An ISO 3166-1 alpha-2 code that is assigned, in capitals (US, not us or XX). */
export const isCountryCode = (value: unknown): value is string =>
	typeof value === 'string' && ISO_COUNTRIES.has(value);

/** Text with something other than spaces in it: a required name such as first_name. */
export const isBlank = (value: string) => value.trim() === '';

/** A real calendar date written YYYY-MM-DD (2024-02-30 is not). */
export function isCalendarDate(text: string): boolean {
	const match = DATE.exec(text);
	if (!match) return false;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/**
 * An ISO 8601 date (UTC midnight) or date-time with a T (no zone: UTC) in
 * epoch milliseconds, or null when the text is not one.
 */
export function parseTimestamp(text: string): number | null {
	const datePart = text.slice(0, 10);
	if (!isCalendarDate(datePart)) return null;
	const base = Date.parse(`${datePart}T00:00:00Z`);
	if (text.length === 10) return base;
	const match = TIME.exec(text.slice(10));
	if (!match) return null;
	const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
	if (hours > 23 || minutes > 59 || seconds > 59) return null;
	const ms = Number((match[4] ?? '0').padEnd(3, '0').slice(0, 3));
	let offsetMinutes = 0;
	const zone = match[5];
	if (zone && zone.toUpperCase() !== 'Z') {
		const digits = zone.replace(':', '');
		const [zoneHours, zoneMinutes] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
		if (zoneHours > 23 || zoneMinutes > 59) return null;
		offsetMinutes = (zoneHours * 60 + zoneMinutes) * (digits[0] === '-' ? -1 : 1);
	}
	return base + ((hours * 60 + minutes - offsetMinutes) * 60 + seconds) * 1000 + ms;
}

const MB = 1024 * 1024;

/** A byte count as people read file limits: 10 MB, 10.5 MB. */
export const megabytes = (bytes: number) => `${Number((bytes / MB).toFixed(1))} MB`;
