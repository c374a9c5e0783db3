/**
 * Record pickers. Each operation names its record-id fields with
 * `recordIdField`, which gives the field two variants: the plain ID string
 * version 1 shows, and a resource locator for version 2 and later (what else
 * version 1 does differently: ./versions.ts). Workflows built on version 1 keep
 * their parameters unchanged.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { linkForms, locatorProperty, readRecordLink, recordName } from '../../shared/locators';
import type { LocatorKind } from '../../shared/locators';
import { FROM_V2, ONLY_V1 } from './versions';

function shownIn(property: INodeProperties, versions: typeof ONLY_V1): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...displayOptions, show: { ...displayOptions.show, ...versions } },
	};
}

/** A field that picks a record of `kind`: the ID string (version 1) and a locator (version 2 on). */
export function recordIdField(kind: LocatorKind, property: INodeProperties): INodeProperties[] {
	const { displayName, name, description, required, displayOptions } = property;
	const locator = locatorProperty(kind, {
		displayName: displayName.replace(/ ID$/, ''),
		name,
		description,
		required,
		displayOptions,
	});
	return [shownIn(property, ONLY_V1), shownIn(locator, FROM_V2)];
}

/**
 * The id a record-id field holds: a v1 string, a locator's value, or a string
 * from an expression. A By URL link is read here, item by item (recordLinks,
 * or any link holding exactly one UUID); one the node cannot read fails its
 * item, naming the field and the link forms it reads.
 */
export function recordId(
	ctx: IExecuteFunctions,
	kind: LocatorKind,
	name: string,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (!value || typeof value !== 'object') return String(value ?? '').trim();
	const { mode, value: given } = value as IDataObject;
	const text = String(given ?? '').trim();
	if (mode !== 'url') return text;
	const read = readRecordLink(kind, text);
	if ('id' in read) return read.id;
	throw new NodeOperationError(
		ctx.getNode(),
		`${recordName(kind)} (By URL): the link "${text}" ${read.problem}`,
		{ itemIndex, description: `By URL takes ${linkForms(kind)}.` },
	);
}
