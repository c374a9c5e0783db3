/**
 * A broken input rule: the field (wire name) and the reason, in words that fit
 * after the field's name. The node turns it into an item-level error naming the
 * field; the sandbox into a 400 in the API's error shape, with `code` when the
 * rule gives one.
 */
export class RuleViolation extends Error {
	constructor(
		readonly field: string,
		readonly reason: string,
		/** The API error code this breach answers with, when it is not the plain invalid one. */
		readonly code?:
			| 'invalid_body'
			| 'missing_field'
			| 'unknown_field'
			| 'file_type_not_allowed'
			| 'content_type_mismatch',
	) {
		super(`${field}: ${reason}`);
	}
}
