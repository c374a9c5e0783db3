/**
 * CONTRIBUTING.md's folder map and data paths stay true, and so do the paths
 * the pages in docs/ name: every repository path they name exists, and every
 * step of a data path names a symbol that its file defines.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
/** The pages in docs/ (notes from other branches are not pages, and are left out). */
const docPages = readdirSync(join(root, 'docs'))
	.filter((file) => file.endsWith('.md'))
	.map((file) => ({ file: `docs/${file}`, text: readFileSync(join(root, 'docs', file), 'utf8') }));

/** Pages another branch writes; until they land, naming them is not an error. */
const LANDING_ELSEWHERE = new Set(['docs/assumptions.md']);
const missing = (path: string) => !existsSync(join(root, path)) && !LANDING_ELSEWHERE.has(path);

/** Top-level folders of the repository; a backticked token starting with one is a path. */
const REPO_FOLDERS =
	/^(credentials|nodes|sandbox|test|scripts|bench|openapi|examples|docs|icons|\.ci|\.github)\//;

/** Every `path` in backticks that points into the repository, split at ", " lists. */
function namedPaths(text: string): string[] {
	return [...text.matchAll(/`([^`\s]+)`/g)]
		.map((match) => match[1])
		.filter((token) => REPO_FOLDERS.test(token) && !/[<>*{}]/.test(token));
}

/** A data-path step: "1. `file`: `symbol` ..." */
function steps(text: string): Array<{ file: string; symbol: string }> {
	return [...text.matchAll(/^\s*\d+\. `([^`]+)`: `(\w+)`/gm)].map((match) => ({
		file: match[1],
		symbol: match[2],
	}));
}

function defines(source: string, symbol: string): boolean {
	return new RegExp(
		`(function\\*?|class|const|let|interface|type)\\s+${symbol}\\b|^\\s*(async\\s+)?${symbol}\\s*\\(`,
		'm',
	).test(source);
}

describe('CONTRIBUTING.md', () => {
	it('names only paths that exist', () => {
		const paths = namedPaths(contributing);
		expect(paths.length).toBeGreaterThan(20);
		expect(paths.filter(missing)).toEqual([]);
	});

	it('the pages in docs/ name only paths that exist', () => {
		const named = docPages.flatMap(({ file, text }) =>
			namedPaths(text).map((path) => ({ file, path })),
		);
		expect(named.length).toBeGreaterThan(20);
		expect(named.filter(({ path }) => missing(path))).toEqual([]);
	});

	it('maps each data path step to a symbol its file defines', () => {
		const named = steps(contributing);
		expect(named.length).toBeGreaterThanOrEqual(15);
		const missing = named.filter(
			({ file, symbol }) =>
				!existsSync(join(root, file)) || !defines(readFileSync(join(root, file), 'utf8'), symbol),
		);
		expect(missing).toEqual([]);
	});

	it('the checks catch a renamed symbol and a moved file', () => {
		const stale =
			'1. `nodes/shared/transport/pages.ts`: `paginateAll` walks\n2. `nodes/gone.ts`: `x` y';
		const named = steps(stale);
		expect(named).toHaveLength(2);
		expect(defines(readFileSync(join(root, named[0].file), 'utf8'), named[0].symbol)).toBe(false);
		expect(namedPaths(stale).filter((p) => !existsSync(join(root, p)))).toEqual(['nodes/gone.ts']);
	});
});
