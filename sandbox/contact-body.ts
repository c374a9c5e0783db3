import { checkBody } from '../nodes/shared/rules/body';
import { underRule } from './rules';

export type ContactBody = Record<string, unknown>;

/**
 * A ContactCreate/ContactUpdate body by the rule book's body rules: no
 * additional properties, required fields, nullability, types and formats, and
 * the tags/tag_ids exclusion. Every failure is a 400 naming the field.
 */
export function parseContactBody(
	endpoint: 'createContact' | 'updateContact',
	body: unknown,
): ContactBody {
	return underRule(() => checkBody(endpoint, body), 'invalid_field');
}
