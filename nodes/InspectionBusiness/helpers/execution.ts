/**
 * Item-level error handling shared by every operation (the node's execute
 * runs it per item; batched operations call it themselves): errors carry the
 * index of the item that caused them, and continue-on-fail turns them into
 * error items (with pairedItem) instead of stopping the node.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RuleViolation } from '../../shared/rules/violation';
import { checkedId, invalidInput } from '../../shared/validation';
import type { LocatorKind } from '../../shared/locators';
import { recordId } from './locatorsByVersion';

export type ItemError = NodeApiError | NodeOperationError;

/** Tags a transport or parameter error with the item it belongs to; wraps anything else. */
function itemError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): ItemError {
	// A broken input rule (e.g. a Filters value) names its field, as underRule would.
	if (error instanceof RuleViolation)
		error = invalidInput(ctx.getNode(), error.field, error.reason);
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

export function errorItem(error: ItemError, itemIndex: number): INodeExecutionData {
	const json = error.description
		? { error: error.message, description: error.description }
		: { error: error.message };
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Continue-on-fail, in one place: the item's error, tagged with its index, is
 * thrown (stopping the node) unless the node continues on fail; then it is
 * returned for the caller to output as an error item.
 */
export function continueOrThrow(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): ItemError {
	const failure = itemError(ctx, error, itemIndex);
	if (!ctx.continueOnFail()) throw failure;
	return failure;
}

/**
 * Reads an ID parameter (a string or a locator) and checks it by the rule
 * book's ID rule, naming the field if not. Get checks each item's ID this way
 * before the batch, so one bad ID fails only its own item.
 */
export function uuidParameter(
	ctx: IExecuteFunctions,
	kind: LocatorKind,
	parameter: string,
	label: string,
	itemIndex: number,
): string {
	return checkedId(ctx.getNode(), parameter, recordId(ctx, kind, parameter, itemIndex), label);
}
