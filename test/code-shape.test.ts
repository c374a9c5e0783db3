/**
 * The shipped code stays readable for a newcomer: no function is longer than
 * MAX_FUNCTION_LINES, and no comment or string cites a code such as A9 or D13
 * from a document outside the repository (the assumptions have names, see
 * docs/assumptions.md). The assertions cover CHECKED_PATHS: everything shipped,
 * nodes/ and credentials/.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..');

/** Folders under the two rules: all the shipped code. */
const CHECKED_PATHS = ['credentials', 'nodes'];

const MAX_FUNCTION_LINES = 60;

/** A bare citation of a document id: A1–A99 or D1–D99 as a word of its own. */
const DOCUMENT_CODE = /\b[AD][0-9]{1,2}\b/;

function tsFiles(path: string): string[] {
	if (!statSync(path).isDirectory()) return path.endsWith('.ts') ? [path] : [];
	return readdirSync(path).flatMap((name) => tsFiles(join(path, name)));
}

interface LongFunction {
	where: string;
	lines: number;
}

/** A function's name, or that of the variable or property it is assigned to. */
function functionName(node: ts.Node): string {
	const named = node as ts.Node & { name?: ts.Node };
	if (named.name && ts.isIdentifier(named.name)) return named.name.text;
	const parent = node.parent;
	if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
		return parent.name.getText();
	return '(anonymous)';
}

/** Every function-like node longer than `max` lines (its body included, its doc comment not). */
function longFunctions(fileName: string, text: string, max: number): LongFunction[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
	const found: LongFunction[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const lines = last - first + 1;
			if (lines > max)
				found.push({ where: `${fileName}:${first + 1} ${functionName(node)}`, lines });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** Lines that cite a document code, as "file:line: text". */
function documentCodes(fileName: string, text: string): string[] {
	return text
		.split('\n')
		.map((line, index) => ({ line, index }))
		.filter(({ line }) => DOCUMENT_CODE.test(line))
		.map(({ line, index }) => `${fileName}:${index + 1}: ${line.trim()}`);
}

describe('code shape', () => {
	const files = CHECKED_PATHS.flatMap((path) => {
		const absolute = join(root, path);
		if (!existsSync(absolute)) throw new Error(`CHECKED_PATHS names ${path}, which is gone`);
		return tsFiles(absolute);
	}).map((file) => ({ name: relative(root, file), text: readFileSync(file, 'utf8') }));

	it('reads the files it checks', () => {
		expect(files.length).toBeGreaterThan(50);
	});

	it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
		const long = files.flatMap(({ name, text }) => longFunctions(name, text, MAX_FUNCTION_LINES));
		expect(long).toEqual([]);
	});

	it('cites no document code such as A9 or D13', () => {
		expect(files.flatMap(({ name, text }) => documentCodes(name, text))).toEqual([]);
	});

	it('catches a long function, an arrow function and a method included, and a cited code', () => {
		const body = (count: number) => Array.from({ length: count }, () => '\tx++;').join('\n');
		const sample = [
			`function long() {\n${body(59)}\n}`,
			`const arrow = () => {\n${body(60)}\n};`,
			`class C {\n\tmethod() {\n${body(59)}\n\t}\n}`,
			`function short() {\n${body(58)}\n}`,
		].join('\n');
		expect(longFunctions('sample.ts', sample, MAX_FUNCTION_LINES)).toEqual([
			{ where: 'sample.ts:1 long', lines: 61 },
			{ where: 'sample.ts:62 arrow', lines: 62 },
			{ where: 'sample.ts:125 method', lines: 61 },
		]);
		expect(documentCodes('sample.ts', '// ok: A-level, 4d3c\n// see A9\nconst D13 = 1;')).toEqual([
			'sample.ts:2: // see A9',
			'sample.ts:3: const D13 = 1;',
		]);
	});
});
