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

/** A broken rule of one body field, with the reason in words that follow the field's name. */
const broken = (field: BodyField, reason: string) => new RuleViolation(field.name, reason);
const shown = (value: unknown) => JSON.stringify(value);

/** A comma-separated list of addresses (cc_email): none empty, each an email, at most the field's count. */
function checkEmailList(value: unknown, field: BodyField): string {
	if (typeof value !== 'string') throw broken(field, 'must be text: addresses separated by commas');
	const emails = value.split(',').map((email) => email.trim());
	if (emails.some((email) => email === '')) throw broken(field, 'must not hold an empty address');
	const bad = emails.find((email) => !isEmail(email));
	if (bad !== undefined) throw broken(field, `"${bad}" is not an email address`);
	const max = field.maxItems ?? LIMITS.ccEmailMax;
	if (emails.length > max) throw broken(field, `at most ${max} addresses, got ${emails.length}`);
	// Checked address by address, stored as sent: the API does not re-format the list.
	return value;
}

/** A list of ids (tag_ids): each a UUID; sent in lower case without repeats. */
function checkUuidArray(value: unknown, field: BodyField): string[] {
	if (!Array.isArray(value)) throw broken(field, 'must be a list of IDs');
	const bad: unknown = value.find((id) => !isUuid(id));
	if (bad !== undefined) throw broken(field, `${shown(bad)} ${NOT_AN_ID}`);
	return [...new Set((value as string[]).map((id) => id.toLowerCase()))];
}

/** An object of text values (social links): no empty name as a key. */
function checkStringMap(value: unknown, field: BodyField): Record<string, unknown> {
	if (!isPlainObject(value) || Object.values(value).some((entry) => typeof entry !== 'string'))
		throw broken(field, 'must be an object of text values, e.g. {"linkedin": "https://…"}');
	if (Object.keys(value).some(isBlank)) throw broken(field, 'must not have an empty name as a key');
	return value;
}

type ValueCheck = (value: unknown, field: BodyField) => unknown;

/** One check per field type of the endpoint table: each refuses a bad value or returns it as the API stores it. */
const BODY_VALUE_CHECKS: Record<BodyField['type'], ValueCheck> = {
	string: (value, field) => {
		if (typeof value !== 'string') throw broken(field, 'must be text');
		if (!field.nullable && isBlank(value)) throw broken(field, 'must not be blank');
		return value;
	},
	email: (value, field) => {
		if (typeof value !== 'string' || !isEmail(value.trim()))
			throw broken(field, `${shown(value)} is not an email address`);
		return value.trim();
	},
	'email-list': checkEmailList,
	country: (value, field) => {
		if (!isCountryCode(value))
			throw broken(
				field,
				`${shown(value)} is not an ISO 3166 alpha-2 country code in capitals, such as US or CA`,
			);
		return value;
	},
	date: (value, field) => {
		if (typeof value !== 'string' || !isCalendarDate(value))
			throw broken(field, `${shown(value)} is not a date (YYYY-MM-DD)`);
		return value;
	},
	uuid: (value, field) => {
		if (!isUuid(value)) throw broken(field, `${shown(value)} ${NOT_AN_ID}`);
		return value.toLowerCase();
	},
	'uuid-array': checkUuidArray,
	'string-array': (value, field) => {
		if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string'))
			throw broken(field, 'must be a list of names');
		if ((value as string[]).some(isBlank)) throw broken(field, 'must not hold an empty name');
		return value;
	},
	'string-map': checkStringMap,
	boolean: (value, field) => {
		if (typeof value !== 'boolean') throw broken(field, 'must be true or false');
		return value;
	},
	enum: (value, field) => {
		if (typeof value !== 'string' || !field.values?.includes(value))
			throw broken(field, `must be one of ${(field.values ?? []).join(', ')}`);
		return value;
	},
	file: (_value, field) => {
		throw broken(field, 'cannot be sent in a JSON body');
	},
};

/** One non-null value against its field's type. */
function checkBodyValue(field: BodyField, value: unknown): unknown {
	return BODY_VALUE_CHECKS[field.type](value, field);
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
