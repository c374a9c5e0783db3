/**
 * JSON body rules (ContactCreate, ContactUpdate): no fields beyond the
 * schema's, nullability, each field's type and format, required fields, and
 * the mutually exclusive pairs (tags / tag_ids). Returns the body as the API
 * stores it (an email trimmed, ids in lower case, id lists without repeats; a
 * CC list as it was sent).
 */
import { type BodyField, type Endpoint, ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import { isBlank, isCalendarDate, isCountryCode, isEmail, isUuid, NOT_AN_ID } from './formats';
import { RuleViolation } from './violation';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** One non-null value against its field's type. */
function checkBodyValue(field: BodyField, value: unknown): unknown {
	const fail = (reason: string) => new RuleViolation(field.name, reason);
	const shown = JSON.stringify(value);
	switch (field.type) {
		case 'string':
			if (typeof value !== 'string') throw fail('must be text');
			if (!field.nullable && isBlank(value)) throw fail('must not be blank');
			return value;
		case 'email':
			if (typeof value !== 'string' || !isEmail(value.trim()))
				throw fail(`${shown} is not an email address`);
			return value.trim();
		case 'email-list': {
			if (typeof value !== 'string') throw fail('must be text: addresses separated by commas');
			const emails = value.split(',').map((email) => email.trim());
			if (emails.some((email) => email === '')) throw fail('must not hold an empty address');
			const bad = emails.find((email) => !isEmail(email));
			if (bad !== undefined) throw fail(`"${bad}" is not an email address`);
			const max = field.maxItems ?? LIMITS.ccEmailMax;
			if (emails.length > max) throw fail(`at most ${max} addresses, got ${emails.length}`);
			// Checked entry by entry, stored as sent: the API does not re-format the list.
			return value;
		}
		case 'country':
			if (!isCountryCode(value))
				throw fail(
					`${shown} is not an ISO 3166 alpha-2 country code in capitals, such as US or CA`,
				);
			return value;
		case 'date':
			if (typeof value !== 'string' || !isCalendarDate(value))
				throw fail(`${shown} is not a date (YYYY-MM-DD)`);
			return value;
		case 'uuid':
			if (!isUuid(value)) throw fail(`${shown} ${NOT_AN_ID}`);
			return value.toLowerCase();
		case 'uuid-array': {
			if (!Array.isArray(value)) throw fail('must be a list of IDs');
			const bad: unknown = value.find((id) => !isUuid(id));
			if (bad !== undefined) throw fail(`${JSON.stringify(bad)} ${NOT_AN_ID}`);
			return [...new Set((value as string[]).map((id) => id.toLowerCase()))];
		}
		case 'string-array':
			if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string'))
				throw fail('must be a list of names');
			if ((value as string[]).some(isBlank)) throw fail('must not hold an empty name');
			return value;
		case 'string-map':
			if (!isPlainObject(value) || Object.values(value).some((entry) => typeof entry !== 'string'))
				throw fail('must be an object of text values, e.g. {"linkedin": "https://…"}');
			if (Object.keys(value).some(isBlank)) throw fail('must not have an empty name as a key');
			return value;
		case 'boolean':
			if (typeof value !== 'boolean') throw fail('must be true or false');
			return value;
		case 'enum':
			if (typeof value !== 'string' || !field.values?.includes(value))
				throw fail(`must be one of ${(field.values ?? []).join(', ')}`);
			return value;
		case 'file':
			throw fail('cannot be sent in a JSON body');
	}
}

/** A whole JSON body of a contact write. */
export function checkBody(endpoint: EndpointKey, body: unknown): Record<string, unknown> {
	const spec: Endpoint = ENDPOINTS[endpoint];
	if (spec.body?.encoding !== 'json')
		throw new RuleViolation('body', `${spec.method} ${spec.path} takes no JSON body`);
	if (!isPlainObject(body))
		throw new RuleViolation('body', 'must be a JSON object', 'invalid_body');
	const { schema, fields } = spec.body;
	const checked: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(body)) {
		const field = fields.find((candidate) => candidate.name === name);
		if (field === undefined)
			throw new RuleViolation(name, `not a field of ${schema}`, 'unknown_field');
		if (value === null && !field.nullable) throw new RuleViolation(name, 'cannot be empty (null)');
		checked[name] = value === null ? null : checkBodyValue(field, value);
	}
	for (const field of fields) {
		if (field.required && !(field.name in checked))
			throw new RuleViolation(field.name, 'is required', 'missing_field');
	}
	for (const [first, second] of spec.body.exclusive ?? []) {
		if (first in checked && second in checked)
			throw new RuleViolation(first, `send either "${first}" or "${second}", not both`);
	}
	return checked;
}
