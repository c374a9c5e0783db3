/**
 * The documents stay whole, not worded: each stays within its word budget,
 * every link lands (relative links and pictures, repository paths named in
 * backticks, the documentation links the editor shows), and each table made
 * from the code equals what the code holds now. What the documents say in
 * words is review's to judge; what the code does is the other tests'.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { InspectionBusinessApi } from '../credentials/InspectionBusinessApi.credentials';
import { InspectionBusinessWebhookApi } from '../credentials/InspectionBusinessWebhookApi.credentials';
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node';
import { regenerated } from '../scripts/events-doc';
import {
	END_MARKER,
	operationTables,
	START_MARKER,
	type OperationTable,
} from '../scripts/operations-doc';

const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const REPOSITORY = 'https://github.com/inspection-business/n8n-nodes-inspection-business';
const DOCS = readdirSync(join(root, 'docs'))
	.filter((file) => file.endsWith('.md'))
	.map((file) => `docs/${file}`);
const PAGES = ['README.md', 'CONTRIBUTING.md', ...DOCS];

/** Words as `wc -w` counts them: runs of characters between whitespace. */
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

/** The anchors of a Markdown text's headings (code blocks left out). */
function anchorsOf(markdown: string): Set<string> {
	const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
	return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])));
}

describe('word budgets, as wc -w counts', () => {
	it.each([
		['README.md', 2700],
		['CONTRIBUTING.md', 2250],
		['docs/testing.md', 2500],
	])('%s has at most %i words', (file, budget) => {
		expect(wordCount(read(file))).toBeLessThanOrEqual(budget);
	});
});

describe('links', () => {
	/** Every `](target)` that is not a web address (pictures included), with its page. */
	const links = PAGES.flatMap((file) =>
		[...read(file).matchAll(/\]\(([^)\s]+)\)/g)]
			.map((match) => match[1])
			.filter((target) => !/^[a-z]+:/i.test(target))
			.map((target) => ({ file, target })),
	);

	/** Why a link does not land, or undefined when it does. */
	function broken({ file, target }: { file: string; target: string }): string | undefined {
		const [path, anchor] = target.split('#');
		const landing = path === '' ? file : normalize(join(dirname(file), path)).replace(/\/$/, '');
		if (!existsSync(join(root, landing))) return `${file}: ${target} (no such file)`;
		if (anchor === undefined || !landing.endsWith('.md')) return undefined;
		return anchorsOf(read(landing)).has(anchor) ? undefined : `${file}: ${target} (no heading)`;
	}

	/** A backticked token that starts with a top-level folder is a repository path. */
	const REPO_FOLDERS =
		/^(credentials|nodes|sandbox|test|scripts|bench|openapi|examples|docs|icons|\.ci|\.github)\//;
	const namedPaths = (text: string) =>
		[...text.matchAll(/`([^`\s]+)`/g)]
			.map((match) => match[1])
			.filter((token) => REPO_FOLDERS.test(token) && !/[<>*{}]/.test(token));

	it('every relative link and picture of the README, CONTRIBUTING.md and docs/ lands on a file and heading', () => {
		expect(links.length).toBeGreaterThan(40);
		expect(links.map(broken).filter(Boolean)).toEqual([]);
	});

	it('the link check catches a missing file and a missing heading, and passes a good one', () => {
		expect(broken({ file: 'README.md', target: 'docs/gone.md' })).toMatch(/no such file/);
		expect(broken({ file: 'README.md', target: '#no-such-heading' })).toMatch(/no heading/);
		expect(broken({ file: 'docs/reliability.md', target: '../README.md#operations' })).toBe(
			undefined,
		);
	});

	it('every repository path the pages name in backticks exists', () => {
		const named = PAGES.flatMap((file) => namedPaths(read(file)).map((path) => ({ file, path })));
		expect(named.length).toBeGreaterThan(40);
		expect(named.filter(({ path }) => !existsSync(join(root, path)))).toEqual([]);
		expect(namedPaths('`nodes/gone.ts` and `npm test`')).toEqual(['nodes/gone.ts']);
	});

	it("every documentation link the editor shows lands on a heading of the repository's README", () => {
		const codexFiles = readdirSync(join(root, 'nodes'), { withFileTypes: true })
			.filter((entry) => entry.isDirectory() && entry.name !== 'shared')
			.map((entry) => `nodes/${entry.name}/${entry.name}.node.json`);
		expect(codexFiles.filter((file) => !existsSync(join(root, file)))).toEqual([]);
		const urls = [
			...codexFiles.flatMap((file) =>
				Object.values(
					(JSON.parse(read(file)) as { resources: Record<string, Array<{ url: string }>> })
						.resources,
				)
					.flat()
					.map(({ url }) => url),
			),
			new InspectionBusinessApi().documentationUrl,
			new InspectionBusinessWebhookApi().documentationUrl,
		];
		expect(urls.length).toBeGreaterThanOrEqual(5);
		const headings = anchorsOf(read('README.md'));
		expect(
			urls.filter(
				(url) =>
					!url.startsWith(`${REPOSITORY}#`) || !headings.has(url.slice(REPOSITORY.length + 1)),
			),
		).toEqual([]);
	});
});

describe('symbols', () => {
	/**
	 * The pages that walk the code by name: a renamed or removed symbol they name fails here.
	 * (The other pages name n8n's settings and JavaScript's own names, which no file here declares.)
	 */
	const WALKTHROUGHS = ['CONTRIBUTING.md', 'docs/testing.md'];
	/** camelCase (with an inner capital), PascalCase (two words or more) or UPPER_CASE (with a `_`). */
	const SYMBOL =
		/^(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$/;
	/** A backticked name, then the source file it lives in: "`x` in `a.ts`", "`x` (in `a.ts`)", "`x` (`a.ts`)". */
	const PLACED = /`([A-Za-z_]\w*)`,? \(?(?:in )?`([\w./-]+\.ts)`/g;

	/** Every name that looks like a code symbol in the page's backticks (commands and paths left out). */
	const namedSymbols = (text: string) => [
		...new Set(
			[...text.matchAll(/`([^`\n]+)`/g)]
				.map((match) => match[1])
				.filter((token) => !/[\s/=<>]|\.(ts|js|mjs|md|json)$/.test(token))
				.flatMap((token) => token.split(/[.()'",[\]]+/))
				.filter((part) => SYMBOL.test(part)),
		),
	];

	/** The code's files, and n8n-workflow's and n8n-core's declarations (the pages name n8n's too). */
	const sourceFiles = (folder: string, pattern: RegExp): string[] =>
		readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
			const path = `${folder}/${entry.name}`;
			if (entry.isDirectory())
				return entry.name === 'node_modules' ? [] : sourceFiles(path, pattern);
			return pattern.test(entry.name) ? [path] : [];
		});
	const sources = new Map(
		[
			...['nodes', 'credentials', 'sandbox', 'scripts', 'test', 'bench'].flatMap((folder) =>
				sourceFiles(folder, /\.(ts|js|mjs)$/),
			),
			...sourceFiles('node_modules/n8n-workflow/dist/cjs', /\.d\.ts$/),
			...sourceFiles('node_modules/n8n-core/dist', /\.d\.ts$/),
		].map((file) => [file, read(file)]),
	);

	/**
	 * Whether `source` declares `name`: a function, const, class, interface, type or enum, a
	 * member at the start of a line (a method, a property), or, for an UPPER_CASE name, an
	 * environment variable the code reads or sets.
	 */
	function declares(source: string, name: string): boolean {
		const declaration = new RegExp(
			`\\b(?:function\\*?|const|let|var|class|interface|type|enum)\\s+${name}\\b|` +
				`^[ \\t]*(?:(?:export|public|private|protected|readonly|static|async|get|set|abstract|declare|override)\\s+)*${name}\\s*[?!]?\\s*[(<:=]`,
			'm',
		);
		const setting = new RegExp(`\\benv(?:\\.${name}\\b|\\[['"]${name}['"]\\])|\\b${name}\\s*:`);
		return declaration.test(source) || (/^[A-Z0-9_]+$/.test(name) && setting.test(source));
	}
	const declaredAnywhere = (name: string) =>
		[...sources.values()].some((source) => declares(source, name));

	it.each(WALKTHROUGHS)('every code symbol %s names is declared in the code', (page) => {
		const names = namedSymbols(read(page));
		expect(names.length).toBeGreaterThan(5);
		expect(names.filter((name) => !declaredAnywhere(name))).toEqual([]);
	});

	it.each(WALKTHROUGHS)('every symbol %s places in a file is declared in that file', (page) => {
		const placed = [...read(page).matchAll(PLACED)].map(([, name, file]) => ({ name, file }));
		const misplaced = placed.filter(
			({ name, file }) =>
				![...sources].some(
					([path, source]) =>
						(path === file || path.endsWith(`/${file}`)) && declares(source, name),
				),
		);
		expect(misplaced).toEqual([]);
	});

	it('the checks catch a name no code declares and one placed in the wrong file', () => {
		expect(namedSymbols('`GONE_DEFAULTS`, `nodes/x.ts`, `npm test`, `updated_at`')).toEqual([
			'GONE_DEFAULTS',
		]);
		expect(declaredAnywhere('GONE_DEFAULTS')).toBe(false);
		expect(declaredAnywhere('sendApiRequest')).toBe(true);
		expect(declares(read('nodes/shared/transport/retry.ts'), 'sendApiRequest')).toBe(false);
		expect([...'`sendApiRequest` (in `retry.ts`)'.matchAll(PLACED)].map((m) => m[2])).toEqual([
			'retry.ts',
		]);
	});
});

describe('tables made from the code equal the code', () => {
	const actionNode = new InspectionBusiness().nodeVersions[2].description;
	const optionsOf = (property: INodeProperties | undefined) =>
		(property?.options ?? []) as INodePropertyOptions[];

	it("the README's operations table: exactly the node's operations, per resource", () => {
		const readme = read('README.md');
		const start = readme.indexOf('\n| Resource ');
		const rows = [
			...readme
				.slice(start, readme.indexOf('\n\n', start))
				.matchAll(/^\| \*\*([^*]+)\*\* +\| (.+) \|$/gm),
		].map((match) => ({
			resource: match[1],
			operations: [...match[2].matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]).sort(),
		}));
		const resource = actionNode.properties.find((property) => property.name === 'resource');
		expect(rows).toEqual(
			optionsOf(resource).map((option) => ({
				resource: option.name,
				operations: optionsOf(
					actionNode.properties.find(
						(property) =>
							property.name === 'operation' &&
							property.displayOptions?.show?.resource?.[0] === option.value,
					),
				)
					.map((operation) => operation.name)
					.sort(),
			})),
		);
	});

	it("docs/polling-trigger.md's events and watched fields tables: what scripts/events-doc.ts makes", () => {
		const page = read('docs/polling-trigger.md');
		expect(page).toBe(regenerated(page));
	});

	it("docs/operations.md's field tables: what scripts/operations-doc.ts generates, every operation", () => {
		const text = read('docs/operations.md');
		const part = text.slice(text.indexOf(START_MARKER), text.indexOf(END_MARKER));
		const documented: OperationTable[] = [];
		for (const line of part.split('\n')) {
			const heading = /^#### (.+) → (.+)$/.exec(line);
			if (heading) documented.push({ resource: heading[1], operation: heading[2], rows: [] });
			const cells = /^\| (?!-)(.+) \|$/.exec(line);
			if (!cells || line.startsWith('| Field ')) continue;
			const [field, wireName, fallback, notes] = cells[1]
				.split(/ +\| +/)
				.map((cell) => cell.trim().replace(/\\\|/g, '|'));
			documented[documented.length - 1].rows.push({ field, wireName, default: fallback, notes });
		}
		const generated = operationTables().map((table) => ({
			...table,
			rows: table.rows.map((row) => ({ ...row, notes: row.notes.trim() })),
		}));
		expect(documented).toEqual(generated);
		expect(documented).toHaveLength(30);
	});
});
