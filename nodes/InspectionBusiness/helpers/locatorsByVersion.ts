/**
 * Version 2 turns the id fields a user picks into resource locators. The
 * operation files describe each field once, as the plain id string version 1
 * shows; `withLocators` gives every such field two variants, the string for
 * version 1 and a locator for version 2 and later, so workflows built on
 * version 1 keep their parameters unchanged.
 */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { linkForms, locatorProperty, readRecordLink, recordName } from '../../shared/locators';
import type { LocatorKind } from '../../shared/locators';

/** The first version whose id fields are locators. */
export const LOCATOR_VERSION = 2;

const V1: IDisplayOptions['show'] = { '@version': [1] };
const FROM_V2: IDisplayOptions['show'] = { '@version': [{ _cnd: { gte: LOCATOR_VERSION } }] };

/** Path and id parameters by name; a Get's `id` by resource. */
const BY_NAME: Record<string, LocatorKind> = {
	contact_id: 'contact',
	inspection_id: 'inspection',
	attachment_id: 'attachment',
};
const GET_ID_BY_RESOURCE: Record<string, LocatorKind> = {
	agency: 'agency',
	contact: 'contact',
	contactStats: 'contact',
	inspection: 'inspection',
	inspectionEvent: 'event',
};

function locatorKindOf(property: INodeProperties): LocatorKind | undefined {
	if (property.type !== 'string') return undefined;
	if (property.name === 'id') {
		const resource = (property.displayOptions?.show?.resource as string[] | undefined)?.[0];
		return resource ? GET_ID_BY_RESOURCE[resource] : undefined;
	}
	return BY_NAME[property.name];
}

function inVersions(property: INodeProperties, versions: IDisplayOptions['show']): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...displayOptions, show: { ...displayOptions.show, ...versions } },
	};
}

/** The node's top-level properties with each picked id as string (v1) and locator (v2+). */
export function withLocators(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const kind = locatorKindOf(property);
		if (!kind) return [property];
		const { displayName, name, description, required, displayOptions } = property;
		const locator = locatorProperty(kind, {
			displayName: displayName.replace(/ ID$/, ''),
			name,
			description,
			required,
			displayOptions,
		});
		return [inVersions(property, V1), inVersions(locator, FROM_V2)];
	});
}

/**
 * The id a picked field holds: a v1 string, a locator's value, or a string
 * from an expression. A By URL link is read here, item by item (recordLinks, or any
 * link holding exactly one UUID); one the node cannot read fails its item,
 * naming the field and the link forms it reads.
 */
export function locatorParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (!value || typeof value !== 'object') return String(value ?? '').trim();
	const { mode, value: given } = value as IDataObject;
	const text = String(given ?? '').trim();
	const kind =
		name === 'id'
			? GET_ID_BY_RESOURCE[ctx.getNodeParameter('resource', itemIndex) as string]
			: BY_NAME[name];
	if (mode !== 'url' || !kind) return text;
	const read = readRecordLink(kind, text);
	if ('id' in read) return read.id;
	throw new NodeOperationError(
		ctx.getNode(),
		`${recordName(kind)} (By URL): the link "${text}" ${read.problem}`,
		{ itemIndex, description: `By URL takes ${linkForms(kind)}.` },
	);
}
