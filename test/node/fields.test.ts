/**
 * The node's fields against the endpoint table, and against n8n's conventions.
 * Most fields are generated from the table at load time, where the eslint scan
 * cannot see them, so the materialized description is linted here with the
 * same n8n-nodes-base rules.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { ESLint } from 'eslint';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

import {
	allOperations,
	operationFields,
	operationWireFields,
	tableWireFields,
} from '../support/fieldMap';
import { ENDPOINTS, LIMITS } from '../../nodes/shared/endpoints';
import type { Endpoint } from '../../nodes/shared/endpoints';
import { returnAllFields } from '../../nodes/shared/fields';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { InspectionBusiness } from '../../nodes/InspectionBusiness/InspectionBusiness.node';

const node = new InspectionBusiness();
const description = node.nodeVersions[1].description;
const ROOT = join(__dirname, '..', '..');

const sorted = (values: string[]) => [...values].sort();

describe('fields match the endpoint table', () => {
	test('the node offers every resource and operation of the brief', () => {
		expect(
			allOperations()
				.map(({ resource, operation }) => `${resource}.${operation}`)
				.sort(),
		).toEqual(
			[
				'agency.count',
				'agency.get',
				'agency.getAll',
				'attachment.count',
				'attachment.download',
				'attachment.get',
				'attachment.getAll',
				'attachment.getAllForInspection',
				'attachment.upload',
				'contact.count',
				'contact.create',
				'contact.deletePhoto',
				'contact.downloadPhoto',
				'contact.get',
				'contact.getAll',
				'contact.getByEmail',
				'contact.update',
				'contact.uploadPhoto',
				'contact.upsert',
				'contactStats.get',
				'contactStats.getAll',
				'inspection.count',
				'inspection.downloadCoverPhoto',
				'inspection.get',
				'inspection.getAll',
				'inspectionEvent.count',
				'inspectionEvent.get',
				'inspectionEvent.getAll',
				'tag.count',
				'tag.getAll',
			].sort(),
		);
	});

	test.each(allOperations())(
		'$resource / $operation: every table field exactly once, nothing extra',
		({ resource, operation }) => {
			const fields = operationWireFields(resource, operation);
			expect(new Set(fields).size).toBe(fields.length);
			expect(sorted(fields)).toEqual(sorted(tableWireFields(resource, operation)));
		},
	);

	test('every list endpoint the node reads exposes all its documented query parameters in a Get Many', () => {
		const covered = new Set<string>();
		for (const { resource, operation } of allOperations()) {
			if (!operation.startsWith('getAll')) continue;
			for (const field of operationFields(resource, operation)) covered.add(field.wireName);
		}
		for (const [key, spec] of Object.entries(ENDPOINTS)) {
			if (spec.method !== 'GET') continue;
			for (const param of spec.query) {
				if (param.name === 'cursor') continue; // the transport's cursor loop
				expect({ key, param: param.name, covered: covered.has(param.name) }).toEqual({
					key,
					param: param.name,
					covered: true,
				});
			}
		}
	});

	test('each field is reachable in the editor for its operation (a displayed parameter path)', () => {
		const names = new Set(description.properties.map((p) => p.name));
		for (const { resource, operation } of allOperations()) {
			for (const field of operationFields(resource, operation)) {
				expect(names.has(field.parameter.split('.')[0])).toBe(true);
				expect(field.displayName).toMatch(/^[A-Z]/);
			}
		}
	});

	test("Limit's default is the API's default page size", () => {
		expect(returnAllFields.find((p) => p.name === 'limit')?.default).toBe(LIMITS.pageSizeDefault);
	});
});

describe('n8n conventions', () => {
	test('the icons exist relative to the registered node file, where n8n resolves them', () => {
		const icon = description.icon as { light: string; dark: string };
		const entryDir = join(ROOT, 'nodes', 'InspectionBusiness');
		for (const path of [icon.light, icon.dark]) {
			expect(path.startsWith('file:')).toBe(true);
			expect(existsSync(join(entryDir, path.slice('file:'.length)))).toBe(true);
		}
		expect(icon.light).not.toBe(icon.dark);
	});

	test('the description is a tool, versioned, with subtitle and credential', () => {
		expect(node.description.defaultVersion).toBe(2);
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toContain('$parameter["operation"]');
		expect(description.credentials).toEqual([{ name: 'inspectionBusinessApi', required: true }]);
	});

	test('the materialized description passes the n8n-nodes-base node rules', async () => {
		// The plugin treats every file as every kind of file when NODE_ENV is "test" (jest's default).
		const environment = process.env.NODE_ENV;
		process.env.NODE_ENV = 'lint';
		const { default: n8nNodesBase } = await import('eslint-plugin-n8n-nodes-base');
		process.env.NODE_ENV = environment;
		const source = `export class InspectionBusiness implements INodeType {\n\tdescription = ${asSource(description)};\n}\n`;
		const eslint = new ESLint({
			cwd: ROOT,
			overrideConfigFile: true,
			overrideConfig: [
				{
					files: ['**/*.ts'],
					languageOptions: { parser: tseslint.parser as Linter.Parser },
					plugins: { 'n8n-nodes-base': n8nNodesBase },
					rules: {
						...n8nNodesBase.configs.nodes.rules,
						// Off in @n8n/node-cli's config as well.
						'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
						'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
						'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
					},
				},
			],
		});
		const [result] = await eslint.lintText(source, {
			filePath: join(ROOT, 'nodes', 'InspectionBusiness', 'InspectionBusiness.node.ts'),
		});
		const problems = result.messages
			.map((m) => ({
				rule: m.ruleId ?? '',
				at: source.split('\n')[m.line - 1]?.trim() ?? '',
				message: m.message,
			}))
			.filter((problem) => !isTagNamePickerDeviation(problem));
		expect(problems).toEqual([]);
	});
});

/** Every property, collection options and locator modes included. */
function everyProperty(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...(p.type === 'collection' ? everyProperty(p.options as INodeProperties[]) : []),
	]);
}

describe('polish (issue 10)', () => {
	const properties = everyProperty(description.properties);
	const operations = description.properties.filter((p) => p.name === 'operation');

	test('no description, hint or placeholder holds HTML', () => {
		const texts = properties.flatMap((p) => [
			p.description,
			p.hint,
			p.placeholder,
			...((p.options ?? []) as INodePropertyOptions[]).map((o) => o.description),
		]);
		expect(texts.filter((t) => typeof t === 'string' && /<[a-z]/i.test(t))).toEqual([]);
	});

	test('fields whose format is not obvious say it', () => {
		const said = (name: string) => {
			const p = properties.find((q) => q.name === name) as INodeProperties;
			return [p.description, p.hint, p.placeholder].join(' ');
		};
		expect(said('birthday')).toMatch(/YYYY-MM-DD/);
		expect(said('country')).toMatch(/ISO 3166/);
		expect(said('cc_email')).toMatch(/comma-separated/i);
		expect(said('cc_email')).toMatch(/@/);
		expect(said('social')).toMatch(/profile/i);
		expect(said('fieldsToClear')).toMatch(/null/);
		for (const name of ['updated_since', 'from', 'to']) expect(said(name)).toMatch(/ISO 8601.*UTC/);
	});

	test('Tag Names and Tag IDs are multi-selects from the account, labelled apart', () => {
		const tags = properties.find((p) => p.name === 'tags');
		const tagIds = properties.find((p) => p.name === 'tag_ids');
		expect([tags?.displayName, tags?.type, tags?.typeOptions?.loadOptionsMethod]).toEqual([
			'Tag Names',
			'multiOptions',
			'getTags',
		]);
		expect([tagIds?.displayName, tagIds?.type, tagIds?.typeOptions?.loadOptionsMethod]).toEqual([
			'Tag IDs',
			'multiOptions',
			'getTagIds',
		]);
	});

	test('the canvas subtitle is in words', () => {
		const subtitles = JSON.parse(
			/\((\{.*\})\)/.exec(String(description.subtitle))?.[1] ?? '{}',
		) as Record<string, string>;
		expect(subtitles).toMatchObject({
			'contact:getAll': 'Contact: Get Many',
			'contact:getByEmail': 'Contact: Get by Email',
			'inspection:count': 'Inspection: Count',
			'attachment:upload': 'Attachment: Upload',
		});
		expect(Object.keys(subtitles)).toHaveLength(allOperations().length);
	});

	test("each read operation's description says what it returns", () => {
		const reads = operations.flatMap((p) =>
			(p.options as INodePropertyOptions[]).filter((o) =>
				/^(get|getAll|getAllForInspection|getByEmail|count|download)$/.test(String(o.value)),
			),
		);
		expect(reads.length).toBeGreaterThan(15);
		expect(reads.filter((o) => !/: returns /.test(String(o.description)))).toEqual([]);
	});
});

/**
 * The deliberate deviations, both for the tag pickers: tags are picked by name
 * or by ID, because the API takes either, and each picker's label says which
 * ("Tag Names", "Tag IDs"), where n8n's "… Names or IDs" would mix them up.
 * Their descriptions end "… using an expression." without n8n's link, as no
 * description holds HTML (issue 10).
 */
function isTagNamePickerDeviation(problem: { rule: string; at: string }): boolean {
	const dynamicOptions = /dynamic-(multi-)?options$/.test(problem.rule);
	return (
		dynamicOptions &&
		/^(displayName: "(Tag Names|Tag IDs)"|description: ".*using an expression\.")/.test(problem.at)
	);
}

/** An object as TypeScript source with bare keys, as the lint rules expect of a hand-written description. */
function asSource(value: unknown): string {
	return JSON.stringify(value, null, '\t').replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, '$1$2:');
}

describe('every field with a format says it (issue 18)', () => {
	interface Field {
		path: string;
		name: string;
		type: string;
		said: string;
	}
	/** Every field a user fills in: collection and fixedCollection entries and locator modes too. */
	function fieldsOf(properties: INodeProperties[], path = ''): Field[] {
		return properties.flatMap((p) => {
			const here = `${path}${p.displayName}`;
			const said = [p.description, p.hint, p.placeholder].filter(Boolean).join(' ');
			const own: Field[] = [{ path: here, name: p.name, type: p.type, said }];
			if (p.type === 'collection')
				return [...own, ...fieldsOf(p.options as INodeProperties[], `${here} > `)];
			if (p.type === 'fixedCollection')
				return [
					...own,
					...(p.options as Array<{ values: INodeProperties[] }>).flatMap((o) =>
						fieldsOf(o.values, `${here} > `),
					),
				];
			if (p.type === 'resourceLocator')
				return [
					...own,
					...(p.modes ?? []).map((m) => ({
						path: `${here} (${m.displayName})`,
						name: `${p.name}:${m.name}`,
						type: m.type,
						said: [said, m.placeholder, m.hint].filter(Boolean).join(' '),
					})),
				];
			return own;
		});
	}

	/** The format each kind of value has, and what saying it looks like. */
	const FORMATS: Record<string, RegExp> = {
		email: /@/,
		'email-list': /comma-separated.*@|@.*comma-separated/i,
		country: /ISO 3166/,
		date: /YYYY-MM-DD/,
		timestamp: /ISO 8601/,
		uuid: /[0-9a-f]{8}-[0-9a-f]{4}-/,
		'id-list': /comma-separated.*[0-9a-f]{8}-|[0-9a-f]{8}-.*…/i,
		link: /link|https?:\/\//i,
	};
	/** Wire names whose type the endpoint table gives; the rest are named here. */
	const formatOf = new Map<string, string>([
		['website', 'link'],
		['url', 'link'],
		['contact_id:id', 'uuid'],
		['inspection_id:id', 'uuid'],
		['id:id', 'uuid'],
		['agency_id:id', 'uuid'],
		['contact_id:url', 'link'],
		['inspection_id:url', 'link'],
		['id:url', 'link'],
		['agency_id:url', 'link'],
	]);
	for (const spec of Object.values(ENDPOINTS as Record<string, Endpoint>)) {
		for (const entry of [...spec.query, ...(spec.body?.fields ?? [])])
			if (entry.type in FORMATS && !formatOf.has(entry.name)) formatOf.set(entry.name, entry.type);
	}

	test.each([1, 2])('version %i', (version) => {
		const properties = node.nodeVersions[version].description.properties.filter((p) => {
			const versions = p.displayOptions?.show?.['@version'];
			return !versions || JSON.stringify(versions).includes(version === 1 ? '[1]' : 'gte');
		});
		const formatted = fieldsOf(properties).filter((field) => formatOf.has(field.name));
		expect(formatted.length).toBeGreaterThan(40);
		const silent = formatted
			// Pickers (From List, the tag lists) show names, and a locator's modes say the format.
			.filter(
				(field) => !['list', 'options', 'multiOptions', 'resourceLocator'].includes(field.type),
			)
			.filter((field) => !FORMATS[formatOf.get(field.name)!].test(field.said))
			.map((field) => `${field.path}: ${formatOf.get(field.name)} not said in "${field.said}"`);
		expect(silent).toEqual([]);
	});
});
