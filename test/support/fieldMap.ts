/**
 * Which wire fields each operation's parameters carry, read from the
 * operation descriptions themselves, and which the endpoint table says it
 * should carry. The node tests and the e2e editor check compare the two, so a
 * parameter added to the table cannot be forgotten in the node.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS, idsParamOf } from '../../nodes/shared/endpoints';
import { bodyFields } from '../../nodes/shared/fields';
import type { Operation } from '../../nodes/InspectionBusiness/helpers/operation';
import { resources } from '../../nodes/InspectionBusiness/actions/router';

/** Parameters that steer the node rather than carry a request field, and what they do instead. */
const CONTROLS: Record<string, string> = {
	returnAll: 'reads every page instead of up to Limit',
	sortDirection: 'becomes the "-" prefix of sort',
	simplify: 'shapes the output',
	fields: 'adds fields of the full record to the simplified output',
	fieldsToClear: 'sends null (or an empty tag list) for the fields it names',
	sendFile: 'decides whether a report carries a file',
	source: 'chooses how Download finds the link',
	attachment_id: "picks the attachment from its inspection's list",
	url: 'a signed link, fetched without the API key',
	skipDuplicates: "lists the inspection's attachments first and outputs one already there",
	contentType: "the uploaded file's content type, instead of the binary's MIME type",
};

/** A parameter that steers the node (see CONTROLS), not a request field. */
export const isControl = (parameter: string): boolean => parameter in CONTROLS;

export interface OperationField {
	wireName: string;
	/** Path of the node parameter, e.g. `filters.updated_since`. */
	parameter: string;
	displayName: string;
}

function operationOf(resource: string, operation: string): Operation {
	const found = Object.hasOwn(resources, resource) ? resources[resource][operation] : undefined;
	if (!found) throw new Error(`No operation ${resource}/${operation}`);
	return found;
}

function wireNameOf(op: Operation, parameter: string): string | undefined {
	if (parameter in CONTROLS) return undefined;
	// Get: each item's ID is sent in the list's id-list parameter (noSingleRecordPath).
	if (parameter === 'id') return idsParamOf(op.endpoint);
	// An upload's binary property is the multipart `file`; Download's names its output.
	if (parameter === 'binaryPropertyName') {
		return bodyFields(op.endpoint).some((f) => f.type === 'file') ? 'file' : undefined;
	}
	return parameter;
}

export function allOperations(): Array<{ resource: string; operation: string }> {
	return Object.entries(resources).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) => ({ resource, operation })),
	);
}

/** Version 2's variant of a record-id field: a resource locator shown from version 2 only. */
const isVersion2Picker = (property: INodeProperties): boolean =>
	property.type === 'resourceLocator' &&
	JSON.stringify(property.displayOptions?.show?.['@version']) === '[{"_cnd":{"gte":2}}]';

/** The operation's parameters that carry a wire field, collections opened. */
export function operationFields(resource: string, operation: string): OperationField[] {
	const op = operationOf(resource, operation);
	const fields: OperationField[] = [];
	const visit = (properties: INodeProperties[], prefix: string) => {
		for (const property of properties) {
			// A record-id field is described twice, as version 1's ID string and version 2's
			// record picker (recordIdField): one field, counted once, as version 1 shows it.
			if (isVersion2Picker(property)) continue;
			if (property.type === 'collection') {
				visit(property.options as INodeProperties[], `${prefix}${property.name}.`);
				continue;
			}
			const wireName = wireNameOf(op, property.name);
			if (wireName)
				fields.push({
					wireName,
					parameter: prefix + property.name,
					displayName: property.displayName,
				});
		}
	};
	visit(op.description, '');
	return fields;
}

/** The fields the operation's endpoint puts in its path (e.g. `contact_id`), not in query or body. */
export function operationPathFields(resource: string, operation: string): readonly string[] {
	return ENDPOINTS[operationOf(resource, operation).endpoint].pathParams;
}

export function operationWireFields(resource: string, operation: string): string[] {
	return operationFields(resource, operation).map((field) => field.wireName);
}

/**
 * What the endpoint table says the operation should expose: path placeholders,
 * query parameters (all, or the operation's scope; the cursor is the
 * transport's) and body fields.
 */
export function tableWireFields(resource: string, operation: string): string[] {
	const op = operationOf(resource, operation);
	const spec = ENDPOINTS[op.endpoint];
	const query = spec.query
		.map((param) => param.name)
		.filter((name) => name !== 'cursor' && (!op.queryScope || op.queryScope.includes(name)));
	return [...spec.pathParams, ...query, ...bodyFields(op.endpoint).map((field) => field.name)];
}
