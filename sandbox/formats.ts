/** Value formats shared by query and body validation. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const EMAIL_RE = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+\.[A-Za-z]{2,}$/;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export function isCalendarDate(text: string): boolean {
	const m = DATE_RE.exec(text);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(y, mo - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** An ISO 8601 date (UTC midnight) or date-time (no zone: UTC) in ms, or null when not one. */
export function parseTimestamp(text: string): number | null {
	const datePart = text.slice(0, 10);
	if (!isCalendarDate(datePart)) return null;
	const base = Date.parse(`${datePart}T00:00:00Z`);
	if (text.length === 10) return base;
	const m = TIME_RE.exec(text.slice(10));
	if (!m) return null;
	const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
	if (h > 23 || min > 59 || s > 59) return null;
	const ms = Number((m[4] ?? '0').padEnd(3, '0').slice(0, 3));
	let offsetMin = 0;
	const zone = m[5];
	if (zone && zone.toUpperCase() !== 'Z') {
		const digits = zone.replace(':', '');
		const zh = Number(digits.slice(1, 3));
		const zm = Number(digits.slice(3, 5));
		if (zh > 23 || zm > 59) return null;
		offsetMin = (zh * 60 + zm) * (digits[0] === '-' ? -1 : 1);
	}
	return base + ((h * 60 + min - offsetMin) * 60 + s) * 1000 + ms;
}
