/**
 * What one n8n-workflow release offers a community package, read from its type
 * declarations with the TypeScript compiler: the runtime exports, the members of the
 * contexts a node's methods run in (`this` and `this.helpers`), and the names a node or
 * credential description may use. test/compat/minimum-n8n.test.ts compares the package
 * with the surface of the minimum n8n's n8n-workflow (recorded in test/compat/) and with
 * the installed one; scripts/n8n-workflow-fixture.ts records a release's surface.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface WorkflowSurface {
	/** The n8n-workflow version the surface was read from. */
	version: string;
	/** Names `require('n8n-workflow')` gives a value for (classes, functions, constants). */
	exports: string[];
	/** Members of the node contexts (`this` in execute, poll, webhook, ...) and of their `helpers`. */
	contextMembers: string[];
	/** Per description interface, the property names it declares (inherited ones included). */
	descriptionKeys: Record<string, string[]>;
	/** The parameter types (`NodePropertyTypes`). */
	propertyTypes: string[];
	/** The operators of a display condition (`{ _cnd: { gte: 2 } }`). */
	displayConditions: string[];
	/** Whether a node's icon may be `{ light, dark }` (one file per editor theme). */
	themedIcons: boolean;
}

/** The `this` of a node's methods. */
export const CONTEXT_INTERFACES = [
	'IExecuteFunctions',
	'IExecuteSingleFunctions',
	'IPollFunctions',
	'ITriggerFunctions',
	'IWebhookFunctions',
	'IHookFunctions',
	'ILoadOptionsFunctions',
	'ICredentialTestFunctions',
] as const;

/** What node and credential descriptions are made of. */
export const DESCRIPTION_INTERFACES = [
	'INodeTypeDescription',
	'INodeTypeBaseDescription',
	'INodeProperties',
	'INodePropertyTypeOptions',
	'INodePropertyOptions',
	'INodePropertyCollection',
	'INodePropertyMode',
	'INodePropertyModeTypeOptions',
	'IDisplayOptions',
	'IWebhookDescription',
	'ICredentialType',
	'ICredentialTestRequest',
	'INodeCredentialDescription',
] as const;

/** The surface of the n8n-workflow package installed at `packageDir`. */
export function readWorkflowSurface(packageDir: string): WorkflowSurface {
	const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
		version: string;
		types: string;
	};
	const entry = path.join(packageDir, manifest.types);
	// Only the package's own declarations are read; its dependencies' types are not needed.
	const program = ts.createProgram([entry], {
		noEmit: true,
		skipLibCheck: true,
		types: [],
		module: ts.ModuleKind.NodeNext,
		moduleResolution: ts.ModuleResolutionKind.NodeNext,
	});
	const checker = program.getTypeChecker();
	const source = program.getSourceFile(entry);
	const moduleSymbol = source && checker.getSymbolAtLocation(source);
	if (!moduleSymbol) throw new Error(`Cannot read the declarations at ${entry}`);
	const exported = new Map<string, ts.Symbol>();
	for (const symbol of checker.getExportsOfModule(moduleSymbol))
		exported.set(
			symbol.name,
			symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
		);

	const declared = (name: string): ts.Type | undefined => {
		const symbol = exported.get(name);
		return symbol && checker.getDeclaredTypeOfSymbol(symbol);
	};
	const propertyNames = (type: ts.Type | undefined): string[] =>
		type ? checker.getPropertiesOfType(type).map((property) => property.name) : [];

	const contextMembers = new Set<string>();
	for (const name of CONTEXT_INTERFACES) {
		const type = declared(name);
		if (!type) continue;
		for (const property of checker.getPropertiesOfType(type)) {
			contextMembers.add(property.name);
			if (property.name !== 'helpers') continue;
			const helpers = checker.getTypeOfSymbol(property);
			for (const helper of propertyNames(helpers)) contextMembers.add(`helpers.${helper}`);
		}
	}

	const descriptionKeys: Record<string, string[]> = {};
	for (const name of DESCRIPTION_INTERFACES)
		descriptionKeys[name] = sorted(propertyNames(declared(name)));

	const literals = (type: ts.Type | undefined): string[] =>
		(type?.isUnion() ? type.types : type ? [type] : [])
			.filter((member): member is ts.StringLiteralType => member.isStringLiteral())
			.map((member) => member.value);
	const conditions = declared('DisplayCondition');
	const operators = (
		conditions?.isUnion() ? conditions.types : conditions ? [conditions] : []
	).flatMap((member) => {
		const cnd = member.getProperty('_cnd');
		return cnd ? propertyNames(checker.getTypeOfSymbol(cnd)) : [];
	});

	const icon = declared('INodeTypeDescription')?.getProperty('icon');
	const iconForms = icon ? checker.getNonNullableType(checker.getTypeOfSymbol(icon)) : undefined;
	const themedIcons = (iconForms?.isUnion() ? iconForms.types : iconForms ? [iconForms] : []).some(
		(form) => form.getProperty('light') !== undefined,
	);

	return {
		version: manifest.version,
		exports: sorted(
			[...exported]
				.filter(([, symbol]) => symbol.flags & ts.SymbolFlags.Value)
				.map(([name]) => name),
		),
		contextMembers: sorted([...contextMembers]),
		descriptionKeys,
		propertyTypes: sorted(literals(declared('NodePropertyTypes'))),
		displayConditions: sorted(operators),
		themedIcons,
	};
}

function sorted(names: string[]): string[] {
	return [...new Set(names)].sort();
}
