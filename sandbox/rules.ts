import { RuleViolation } from '../nodes/shared/rules/violation';
import { badRequest } from './http';

/**
 * Runs a rule of the rule book (`nodes/shared/rules/`, the same the node checks
 * before sending); a broken one answers 400 (errorBodyShapes) naming the field, with the
 * rule's own code or `code`.
 */
export function underRule<T>(rule: () => T, code: string): T {
	try {
		return rule();
	} catch (error) {
		if (error instanceof RuleViolation)
			throw badRequest(error.field, error.message, error.code ?? code);
		throw error;
	}
}
