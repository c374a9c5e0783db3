import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { exclusiveConflict } from './values';

/**
 * The API refuses `tags` together with `tag_ids` (400); refusing it here sends
 * nothing, names both fields and says what to do.
 */
export function assertNoExclusiveConflict(
	ctx: IExecuteFunctions,
	endpoint: EndpointKey,
	body: IDataObject,
	itemIndex: number,
): void {
	const conflict = exclusiveConflict(endpoint, body);
	if (!conflict) return;
	const [first, second] = conflict;
	throw new NodeOperationError(ctx.getNode(), `${first} and ${second} cannot be used together`, {
		itemIndex,
		description: `Give the contact's tags either by name (${first}) or by ID (${second}), not both.`,
	});
}
