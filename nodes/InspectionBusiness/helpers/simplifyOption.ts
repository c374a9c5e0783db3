/**
 * The Simplify option: its two fields (Simplify, and Fields to add to the
 * simplified record) and, per item, the output shape it picks. Version 2
 * returns its key fields (plus the ones picked in Fields); version 1
 * keeps its own Simplify where it had one, so its workflows' output does not
 * change. What a simplified record holds is in `simplifiedRecords.ts`.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { labelOf } from '../../shared/fields';
import {
	CONTACT_KEY_FIELDS,
	CONTACT_RECORD_FIELDS,
	contactKeyFields,
	INSPECTION_KEY_FIELDS,
	INSPECTION_RECORD_FIELDS,
	inspectionKeyFields,
	simplifyInspection,
} from './simplifiedRecords';
import { FROM_V2, isVersion1 } from './versions';

type Simplify = (record: IDataObject) => IDataObject;

export interface SimplifyConfig {
	/** Version 2's Simplify. */
	keyFields: Simplify;
	/** What it returns, for the descriptions. */
	keyFieldNames: readonly string[];
	/** Version 1's Simplify; without one, version 1 has no Simplify. */
	v1?: Simplify;
	/** Fields of the full record the Fields option offers. */
	recordFields: readonly string[];
}

export const INSPECTION_SIMPLIFY: SimplifyConfig = {
	keyFields: inspectionKeyFields,
	keyFieldNames: INSPECTION_KEY_FIELDS,
	v1: simplifyInspection,
	recordFields: INSPECTION_RECORD_FIELDS,
};

export const CONTACT_SIMPLIFY: SimplifyConfig = {
	keyFields: contactKeyFields,
	keyFieldNames: CONTACT_KEY_FIELDS,
	recordFields: CONTACT_RECORD_FIELDS,
};

export function simplifyProperties(config: SimplifyConfig): INodeProperties[] {
	const simplify: INodeProperties = {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return only the key fields (${config.keyFieldNames.map(labelOf).join(', ')}) instead of the full record; on by default, also when an AI agent uses the node as a tool`,
		...(config.v1 ? {} : { displayOptions: { show: FROM_V2 } }),
	};
	const fields: INodeProperties = {
		displayName: 'Fields',
		name: 'fields',
		type: 'multiOptions',
		options: config.recordFields
			.filter((name) => !config.keyFieldNames.includes(name))
			.map((name) => ({ name: labelOf(name), value: name })),
		default: [],
		description: 'Fields of the full record to add to the simplified output',
		displayOptions: { show: { ...FROM_V2, simplify: [true] } },
	};
	return [simplify, fields];
}

/**
 * The output shape of one item's records, or undefined for the full record.
 * Simplify is on unless turned off: a node added as an AI agent's tool keeps
 * the default, so the agent gets the key fields (n8n runs it as the type
 * `…inspectionBusinessTool` with the same parameters).
 */
export function outputShape(
	ctx: IExecuteFunctions,
	itemIndex: number,
	config: SimplifyConfig | undefined,
): Simplify | undefined {
	if (!config) return undefined;
	const v1 = isVersion1(ctx);
	if (v1 && !config.v1) return undefined;
	if (!(ctx.getNodeParameter('simplify', itemIndex, true) as boolean)) return undefined;
	if (v1) return config.v1;
	const extra = ctx.getNodeParameter('fields', itemIndex, []) as string[];
	return (record) => {
		const simplified = config.keyFields(record);
		for (const name of extra) if (!(name in simplified)) simplified[name] = record[name] ?? null;
		return simplified;
	};
}
