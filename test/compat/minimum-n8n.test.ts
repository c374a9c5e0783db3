/**
 * The package runs on the minimum n8n it states (test/compat/minimum-n8n.json, what that
 * release's n8n-workflow offers, recorded by scripts/n8n-workflow-fixture.ts): the code
 * takes no value from n8n-workflow that release lacks, calls no context method added
 * after it unless it checks for it first, and its node and credential descriptions use
 * only names that release declares (or that it ignores harmlessly, listed below).
 * Offline: the fixture is committed, the installed n8n-workflow is read from node_modules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { readWorkflowSurface, type WorkflowSurface } from '../../scripts/n8n-workflow-surface';

const root = path.join(__dirname, '..', '..');
const minimum = JSON.parse(
	readFileSync(path.join(__dirname, 'minimum-n8n.json'), 'utf8'),
) as WorkflowSurface & { n8n: string };

/** Context methods newer than the minimum that the code may use, because it checks for them first. */
const GUARDED_MEMBERS: Record<string, RegExp> = {
	getPollBudgetMs: /typeof \w+\.getPollBudgetMs === 'function'/,
	getSecureEgressFilter: /typeof \w+\.getSecureEgressFilter !== 'function'/,
};

/** Description names newer than the minimum that an older n8n ignores without harm. */
const IGNORED_BY_OLDER_N8N: Record<string, string> = {};

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const file = path.join(folder, name);
		if (statSync(file).isDirectory()) return sourceFiles(file);
		return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [file] : [];
	});
}

const files = ['nodes', 'credentials'].flatMap((folder) => sourceFiles(path.join(root, folder)));
const sources = new Map(
	files.map((file) => [path.relative(root, file), readFileSync(file, 'utf8')]),
);

/**
 * The n8n-workflow names a file uses as values at runtime: TypeScript drops imports used
 * only as types, so what its CommonJS output reads off `require("n8n-workflow")` is what
 * n8n must export.
 */
function runtimeImports(source: string): string[] {
	const { outputText } = ts.transpileModule(source, {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
	});
	const bindings = [
		...outputText.matchAll(/(?:const|var|let)\s+(\w+)\s*=\s*(?:\w+\()?require\("n8n-workflow"\)/g),
	].map((match) => match[1]);
	return bindings.flatMap((binding) =>
		[...outputText.matchAll(new RegExp(`\\b${binding}\\.(\\w+)`, 'g'))].map((match) => match[1]),
	);
}

describe(`the minimum n8n (${minimum.n8n}, n8n-workflow ${minimum.version})`, () => {
	it('exports every value the code takes from n8n-workflow', () => {
		const used = new Map<string, string[]>();
		for (const [file, source] of sources)
			for (const name of runtimeImports(source)) used.set(name, [...(used.get(name) ?? []), file]);
		expect(used.size).toBeGreaterThan(0);
		const missing = [...used]
			.filter(([name]) => !minimum.exports.includes(name))
			.map(([name, where]) => `${name} (${[...new Set(where)].join(', ')})`);
		expect(missing).toEqual([]);
	});

	it('has every context method the code calls, or the code checks for it first', () => {
		const installed = readWorkflowSurface(path.join(root, 'node_modules', 'n8n-workflow'));
		const bare = (member: string) => member.replace(/^helpers\./, '');
		const known = new Set(minimum.contextMembers.map(bare));
		const newer = [...new Set(installed.contextMembers.map(bare))].filter((m) => !known.has(m));
		expect(newer).toContain('getPollBudgetMs');
		const unguarded: string[] = [];
		for (const [file, source] of sources)
			for (const member of newer) {
				if (!new RegExp(`[.'"]${member}\\b`).test(source)) continue;
				const guard = GUARDED_MEMBERS[member];
				if (!guard || !guard.test(source)) unguarded.push(`${member} (${file})`);
			}
		expect(unguarded).toEqual([]);
	}, 120_000);

	it('declares every name the node and credential descriptions use', () => {
		const found = descriptions();
		// 3 nodes (the action node once per version, after its base) and 2 credentials.
		expect(found.map(({ where }) => where)).toHaveLength(7);
		const unknown = new Set<string>();
		for (const { where, description, kind } of found)
			for (const problem of describeProblems(description, kind, where)) unknown.add(problem);
		expect(
			[...unknown].filter((problem) => !(problemName(problem) in IGNORED_BY_OLDER_N8N)),
		).toEqual([]);
	});

	it('shows the icons: one per editor theme only where n8n knows `{ light, dark }`', () => {
		const themed = descriptions()
			.filter(({ description }) => typeof description.icon === 'object')
			.map(({ where }) => where);
		expect(themed.length).toBeGreaterThan(0);
		if (!minimum.themedIcons) expect(themed).toEqual([]);
	});
});

/** "INodeProperties.builderHint (…)" → "builderHint" */
function problemName(problem: string): string {
	return problem.split(' ')[0].split('.').pop() ?? problem;
}

type Json = Record<string, unknown>;
type Kind = 'node' | 'credential';

/** Every node's description (each version's) and every credential, as n8n loads them. */
function descriptions(): Array<{ where: string; description: Json; kind: Kind }> {
	const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const load = (built: string) => {
		const file = path.join(root, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		const exported = jest.requireActual<Record<string, new () => Json>>(file);
		return Object.values(exported).map((Class) => new Class());
	};
	const found: Array<{ where: string; description: Json; kind: Kind }> = [];
	for (const built of manifest.n8n.nodes)
		for (const node of load(built)) {
			const versions = (node.nodeVersions ?? {}) as Record<string, Json>;
			found.push({ where: built, description: node.description as Json, kind: 'node' });
			for (const [version, typed] of Object.entries(versions))
				found.push({
					where: `${built} v${version}`,
					description: typed.description as Json,
					kind: 'node',
				});
		}
	for (const built of manifest.n8n.credentials)
		for (const credential of load(built))
			found.push({ where: built, description: credential, kind: 'credential' });
	return found;
}

const keysOf = (name: string) => minimum.descriptionKeys[name] ?? [];

function unknownKeys(value: unknown, interfaces: string[], where: string): string[] {
	if (typeof value !== 'object' || value === null) return [];
	const allowed = new Set(interfaces.flatMap(keysOf));
	return Object.keys(value)
		.filter((key) => !allowed.has(key))
		.map((key) => `${interfaces[0]}.${key} (${where})`);
}

function describeProblems(description: Json, kind: Kind, where: string): string[] {
	const top =
		kind === 'credential'
			? unknownKeys(description, ['ICredentialType'], where)
			: unknownKeys(description, ['INodeTypeDescription', 'INodeTypeBaseDescription'], where);
	const webhooks = ((description.webhooks ?? []) as Json[]).flatMap((webhook) =>
		unknownKeys(webhook, ['IWebhookDescription'], where),
	);
	const credentials = ((kind === 'node' ? (description.credentials ?? []) : []) as Json[]).flatMap(
		(credential) => unknownKeys(credential, ['INodeCredentialDescription'], where),
	);
	const test =
		kind === 'credential' ? unknownKeys(description.test, ['ICredentialTestRequest'], where) : [];
	const properties = ((description.properties ?? []) as Json[]).flatMap((property) =>
		propertyProblems(property, `${where} ${String(property.name)}`),
	);
	return [...top, ...webhooks, ...credentials, ...test, ...properties];
}

function propertyProblems(property: Json, where: string): string[] {
	const problems = [
		...unknownKeys(property, ['INodeProperties'], where),
		...unknownKeys(property.typeOptions, ['INodePropertyTypeOptions'], where),
		...unknownKeys(property.displayOptions, ['IDisplayOptions'], where),
		...displayConditionProblems(property.displayOptions, where),
	];
	if (!minimum.propertyTypes.includes(String(property.type)))
		problems.push(`NodePropertyTypes.${String(property.type)} (${where})`);
	for (const mode of (property.modes ?? []) as Json[])
		problems.push(
			...unknownKeys(mode, ['INodePropertyMode'], where),
			...unknownKeys(mode.typeOptions, ['INodePropertyModeTypeOptions'], where),
		);
	for (const option of (property.options ?? []) as Json[]) {
		const at = `${where}.${String(option.name)}`;
		if (property.type === 'collection') problems.push(...propertyProblems(option, at));
		else if (property.type === 'fixedCollection') {
			problems.push(...unknownKeys(option, ['INodePropertyCollection'], at));
			for (const value of (option.values ?? []) as Json[])
				problems.push(...propertyProblems(value, `${at}.${String(value.name)}`));
		} else problems.push(...unknownKeys(option, ['INodePropertyOptions'], at));
	}
	return problems;
}

/** `{ show: { '@version': [{ _cnd: { gte: 2 } }] } }`: each operator must be one the minimum knows. */
function displayConditionProblems(displayOptions: unknown, where: string): string[] {
	if (typeof displayOptions !== 'object' || displayOptions === null) return [];
	const conditions = Object.values(displayOptions as Record<string, Record<string, unknown[]>>)
		.flatMap((byField) => Object.values(byField ?? {}))
		.flat()
		.filter(
			(value): value is { _cnd: Json } =>
				typeof value === 'object' && value !== null && '_cnd' in value,
		);
	return conditions
		.flatMap((condition) => Object.keys(condition._cnd))
		.filter((operator) => !minimum.displayConditions.includes(operator))
		.map((operator) => `DisplayCondition.${operator} (${where})`);
}
