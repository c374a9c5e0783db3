import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EndpointKey } from '../../shared/endpoints';
import { bodyField } from '../../shared/fields';
import { clearedValue, exclusiveConflict } from './wireValues';

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

/**
 * Adds Fields to Clear to a body: null, or an empty list for tags. A field
 * both set and cleared is refused, naming it, rather than guessing which wins.
 */
export function addFieldsToClear(
	ctx: IExecuteFunctions,
	endpoint: EndpointKey,
	body: IDataObject,
	itemIndex: number,
	/** The collection the body's values come from, e.g. "Update Fields". */
	setIn: string,
): void {
	for (const name of ctx.getNodeParameter('fieldsToClear', itemIndex, []) as string[]) {
		const { label } = bodyField(endpoint, name);
		if (name in body) {
			throw new NodeOperationError(ctx.getNode(), `${label} is both set and cleared`, {
				itemIndex,
				description: `Remove ${label} from ${setIn} or from Fields to Clear.`,
			});
		}
		body[name] = clearedValue(endpoint, name);
	}
}
