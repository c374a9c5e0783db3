/**
 * The field tables of docs/operations.md, generated from the Inspection Business
 * node's own description (version 2, as new nodes are), with each field's wire
 * name from the endpoint table. So the reference says what the editor shows.
 *
 *   npx tsx scripts/operations-doc.ts    # rewrites the tables between the markers
 *
 * test/docs.test.ts fails when the committed tables differ from what this
 * produces; run it after changing a field, then `npx prettier --write docs/operations.md`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { InspectionBusinessActionNode } from '../nodes/InspectionBusiness/actionNode';
import { operationFields } from '../test/support/fieldMap';

export const OPERATIONS_DOC = path.join(__dirname, '..', 'docs', 'operations.md');
export const START_MARKER = '<!-- fields:start -->';
export const END_MARKER = '<!-- fields:end -->';

/** The node version documented: the one new nodes get. */
const DOCUMENTED_VERSION = 2;

/** Parameters that pick the operation, not fields of it. */
const SELECTORS = new Set(['resource', 'operation', '@version']);

export interface FieldRow {
	field: string;
	wireName: string;
	default: string;
	notes: string;
}

export interface OperationTable {
	resource: string;
	operation: string;
	rows: FieldRow[];
}

type Property = INodeProperties;

const isOption = (value: unknown): value is INodePropertyOptions =>
	typeof value === 'object' && value !== null && 'value' in value;

function shownInVersion(show: IDisplayOptions['show']): boolean {
	const versions = show?.['@version'];
	if (!versions) return true;
	return versions.some((condition) =>
		typeof condition === 'number'
			? condition === DOCUMENTED_VERSION
			: (condition as { _cnd?: { gte?: number } })._cnd?.gte !== undefined &&
				DOCUMENTED_VERSION >= Number((condition as { _cnd: { gte: number } })._cnd.gte),
	);
}

function optionName(property: Property | undefined, value: unknown): string {
	const options = (property?.options ?? []).filter(isOption);
	return options.find((option) => option.value === value)?.name ?? String(value);
}

function defaultText(property: Property): string {
	const value = property.default;
	switch (property.type) {
		case 'boolean':
			return value === true ? 'on' : 'off';
		case 'options':
			return value === '' ? '—' : optionName(property, value);
		case 'resourceLocator':
			return 'From List';
		case 'multiOptions':
		case 'fixedCollection':
			return Array.isArray(value) && value.length > 0 ? value.join(', ') : 'none';
		default:
			return value === '' || value === undefined ? '—' : `\`${String(value)}\``;
	}
}

/** "Only when Kind is Report." from the display conditions that are not the operation itself. */
function condition(show: IDisplayOptions['show'], siblings: Property[]): string {
	const parts = Object.entries(show ?? {})
		.filter(([name]) => !SELECTORS.has(name))
		.map(([name, values]) => {
			const controller = siblings.find((sibling) => sibling.name === name);
			const label = controller?.displayName ?? name;
			const shown = (values ?? []).map((value) =>
				controller?.type === 'boolean' ? (value ? 'on' : 'off') : optionName(controller, value),
			);
			return `${label} is ${shown.join(' or ')}`;
		});
	return parts.length > 0 ? `Only when ${parts.join(' and ')}.` : '';
}

function choices(property: Property): string {
	if (property.type === 'resourceLocator') {
		const modes = (property.modes ?? []).map((mode) => mode.displayName);
		return `Pick it ${modes.join(', ').replace(/, ([^,]*)$/, ' or $1')}.`;
	}
	if (property.type !== 'options' && property.type !== 'multiOptions') return '';
	const options = (property.options ?? []).filter(isOption);
	if (options.length === 0) return 'Choices are loaded from the account.';
	return `One of: ${options.map((option) => option.name).join(', ')}.`;
}

const sentence = (text: string | undefined) => {
	const trimmed = (text ?? '').trim();
	return trimmed === '' || /[.!?)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

function notesOf(property: Property, siblings: Property[]): string {
	return [
		property.required ? 'Required.' : '',
		sentence(property.description),
		property.hint ? `Hint: ${sentence(property.hint)}` : '',
		choices(property),
		condition(property.displayOptions?.show, siblings),
	]
		.filter(Boolean)
		.join(' ');
}

function rowsOf(
	properties: Property[],
	siblings: Property[],
	wireNames: Map<string, string>,
	prefix: { path: string; label: string },
): FieldRow[] {
	return properties.flatMap((property): FieldRow[] => {
		if (property.type === 'notice') return [];
		const parameter = prefix.path + property.name;
		const field = prefix.label + property.displayName;
		if (property.type === 'collection') {
			const children = (property.options ?? []) as Property[];
			return rowsOf(children, siblings, wireNames, {
				path: `${parameter}.`,
				label: `${field} → `,
			});
		}
		// Limit is cut locally: every page asks for the most the API serves.
		const wireName = property.name === 'limit' ? undefined : wireNames.get(parameter);
		return [
			{
				field,
				wireName: wireName ? `\`${wireName}\`` : '— (node setting)',
				default: defaultText(property),
				notes: notesOf(property, siblings),
			},
		];
	});
}

/** One table per operation, resources and operations in the editor's order. */
export function operationTables(): OperationTable[] {
	// The implementation serves every version; `@version` display options tell them apart.
	const { description } = new InspectionBusinessActionNode();
	const properties = description.properties.filter((property) =>
		shownInVersion(property.displayOptions?.show),
	);
	const resource = properties.find((property) => property.name === 'resource') as Property;
	return (resource.options as INodePropertyOptions[]).flatMap((resourceOption) => {
		const ofResource = properties.filter(
			(property) =>
				(property.displayOptions?.show?.resource as string[] | undefined)?.[0] ===
				resourceOption.value,
		);
		const operation = ofResource.find((property) => property.name === 'operation') as Property;
		return (operation.options as INodePropertyOptions[]).map((operationOption) => {
			const fields = ofResource.filter((property) =>
				(property.displayOptions?.show?.operation as string[] | undefined)?.includes(
					operationOption.value as string,
				),
			);
			const wireNames = new Map(
				operationFields(String(resourceOption.value), String(operationOption.value)).map(
					(field) => [field.parameter, field.wireName],
				),
			);
			return {
				resource: resourceOption.name,
				operation: operationOption.name,
				rows: rowsOf(fields, fields, wireNames, { path: '', label: '' }),
			};
		});
	});
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderTables(tables: OperationTable[]): string {
	const out: string[] = [];
	let resource = '';
	for (const table of tables) {
		if (table.resource !== resource) {
			resource = table.resource;
			out.push(`### ${resource}`, '');
		}
		out.push(`#### ${table.resource} → ${table.operation}`, '');
		if (table.rows.length === 0) {
			out.push('No fields.', '');
			continue;
		}
		out.push('| Field | Wire name | Default | Notes |', '| --- | --- | --- | --- |');
		for (const row of table.rows) {
			out.push(`| ${[row.field, row.wireName, row.default, row.notes].map(cell).join(' | ')} |`);
		}
		out.push('');
	}
	return out.join('\n');
}

/** The document with its generated part replaced. */
export function withTables(document: string, tables: string): string {
	const start = document.indexOf(START_MARKER);
	const end = document.indexOf(END_MARKER);
	if (start < 0 || end < start) throw new Error(`docs/operations.md lacks ${START_MARKER}`);
	return `${document.slice(0, start + START_MARKER.length)}\n\n${tables}\n${document.slice(end)}`;
}

if (require.main === module) {
	const document = readFileSync(OPERATIONS_DOC, 'utf8');
	writeFileSync(OPERATIONS_DOC, withTables(document, renderTables(operationTables())));
	console.log(`${OPERATIONS_DOC} rewritten; now run: npx prettier --write docs/operations.md`);
}
