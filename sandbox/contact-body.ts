import { ENDPOINTS, type BodyField } from '../nodes/shared/endpoints';
import { ISO_COUNTRIES } from './countries';
import { EMAIL_RE, isCalendarDate, UUID_RE } from './formats';
import { badRequest } from './http';

export type ContactBody = Record<string, unknown>;
type ContactEndpoint = 'createContact' | 'updateContact';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks one non-null value against its field type from the endpoint table; returns it normalized. */
function checkValue(field: BodyField, value: unknown): unknown {
	const { name } = field;
	const fail = (why: string) => badRequest(name, `${name} ${why}`, 'invalid_field');
	switch (field.type) {
		case 'string':
			if (typeof value !== 'string') throw fail('must be a string');
			if (!field.nullable && value.trim() === '') throw fail('must not be empty');
			return value;
		case 'email':
			if (typeof value !== 'string' || !EMAIL_RE.test(value.trim()))
				throw fail('must be an email address');
			return value.trim();
		case 'email-list': {
			if (typeof value !== 'string')
				throw fail('must be a string of comma-separated email addresses');
			const list = value.split(',').map((e) => e.trim());
			if (list.some((e) => !EMAIL_RE.test(e)))
				throw fail('must hold only valid email addresses, comma-separated');
			if (field.maxItems !== undefined && list.length > field.maxItems)
				throw fail(`takes at most ${field.maxItems} addresses`);
			return list.join(', ');
		}
		case 'country':
			if (typeof value !== 'string' || !ISO_COUNTRIES.has(value))
				throw fail('must be an ISO 3166 alpha-2 code in capitals, such as US');
			return value;
		case 'date':
			if (typeof value !== 'string' || !isCalendarDate(value))
				throw fail('must be a calendar date (YYYY-MM-DD)');
			return value;
		case 'uuid':
			if (typeof value !== 'string' || !UUID_RE.test(value)) throw fail('must be a uuid');
			return value.toLowerCase();
		case 'uuid-array':
			if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !UUID_RE.test(v)))
				throw fail('must be a list of uuids');
			return [...new Set(value.map((v: string) => v.toLowerCase()))];
		case 'string-array':
			if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === ''))
				throw fail('must be a list of non-empty strings');
			return value;
		case 'string-map':
			if (!isPlainObject(value) || Object.values(value).some((v) => typeof v !== 'string'))
				throw fail('must be an object of string values');
			return value;
		case 'boolean':
			if (typeof value !== 'boolean') throw fail('must be true or false');
			return value;
		case 'enum':
			if (!field.values?.includes(value as string))
				throw fail(`must be one of ${field.values?.join(', ')}`);
			return value;
		case 'file':
			throw fail('cannot be sent in a JSON body');
	}
}

/**
 * Validates a ContactCreate/ContactUpdate body against the endpoint table: no
 * additional properties, required fields, nullability, types and formats, and
 * the tags/tag_ids exclusion. Every failure is a 400 naming the field.
 */
export function parseContactBody(endpoint: ContactEndpoint, body: unknown): ContactBody {
	const spec = ENDPOINTS[endpoint].body;
	if (!isPlainObject(body))
		throw badRequest('body', 'The body must be a JSON object', 'invalid_body');
	const fields = new Map<string, BodyField>(spec.fields.map((f) => [f.name, f]));
	const out: ContactBody = {};
	for (const [name, value] of Object.entries(body)) {
		const field = fields.get(name);
		if (!field) throw badRequest(name, `${name} is not a field of ${spec.schema}`, 'unknown_field');
		if (value === null) {
			if (!field.nullable) throw badRequest(name, `${name} cannot be null`, 'invalid_field');
			out[name] = null;
		} else {
			out[name] = checkValue(field, value);
		}
	}
	for (const field of spec.fields) {
		if (field.required && !(field.name in out))
			throw badRequest(field.name, `${field.name} is required`, 'missing_field');
	}
	for (const [a, b] of spec.exclusive ?? []) {
		if (a in out && b in out) throw badRequest(a, `Send ${a} or ${b}, not both`, 'invalid_field');
	}
	return out;
}
