/**
 * No import circles: the relative imports (type-only ones included) of every
 * .ts file under nodes/, credentials/, sandbox/, scripts/ and bench/ form a graph
 * without cycles. A circle makes load order matter and hides which module owns
 * a definition.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(__dirname, '..');
const FOLDERS = ['nodes', 'credentials', 'sandbox', 'scripts', 'bench'];

function tsFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
	});
}

/** `from '…'`, `import '…'`, `import('…')` and `require('…')` with a relative specifier. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

function resolveImport(fromFile: string, specifier: string): string | undefined {
	const base = resolve(dirname(fromFile), specifier);
	const candidates = [base, `${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')];
	return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

function importGraph(files: string[]): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const text = readFileSync(file, 'utf8');
		const targets = [...text.matchAll(SPECIFIER)]
			.map((match) => resolveImport(file, match[1]))
			.filter((target): target is string => target !== undefined);
		graph.set(file, [...new Set(targets)]);
	}
	return graph;
}

/** Every cycle found by a depth-first walk, each as the list of files around it. */
function cycles(graph: Map<string, string[]>): string[][] {
	const found: string[][] = [];
	const done = new Set<string>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const visit = (file: string) => {
		stack.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (onStack.has(next)) found.push([...stack.slice(stack.indexOf(next)), next]);
			else if (!done.has(next)) visit(next);
		}
		stack.pop();
		onStack.delete(file);
		done.add(file);
	};
	for (const file of graph.keys()) if (!done.has(file)) visit(file);
	return found;
}

describe('imports', () => {
	const files = FOLDERS.flatMap((folder) => tsFiles(join(root, folder)));

	it('reads the relative imports of every file (the walk sees the graph)', () => {
		const graph = importGraph(files);
		expect(files.length).toBeGreaterThan(50);
		const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
		expect(edges).toBeGreaterThan(files.length);
	});

	it('finds a cycle when there is one', () => {
		const graph = new Map([
			['a', ['b']],
			['b', ['c']],
			['c', ['a']],
			['d', ['a']],
		]);
		expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
	});

	it('has no import circle in nodes/, credentials/, sandbox/, scripts/ or bench/', () => {
		const named = cycles(importGraph(files)).map((cycle) =>
			cycle.map((file) => relative(root, file)).join(' -> '),
		);
		expect(named).toEqual([]);
	});
});

/**
 * The polling trigger's rooms (CONTRIBUTING's folder map): each is a folder
 * with one door, its index.ts, through which every file outside it imports;
 * and they stand on floors, each importing only the rooms below it: memory
 * (the state) at the bottom, then catalog (the events), judge (what a version
 * means), poll (the walks), and the node's own files on top.
 */
const TRIGGER = join(root, 'nodes', 'InspectionBusinessTrigger');
const FLOORS = ['memory', 'catalog', 'judge', 'poll'];
const roomOf = (file: string) => {
	const [first, ...rest] = relative(TRIGGER, file).split('/');
	return rest.length > 0 && FLOORS.includes(first) ? first : undefined;
};

/** Every import of the trigger that goes into a room but not through its door, or up a floor. */
function breaches(graph: Map<string, string[]>): string[] {
	const found: string[] = [];
	for (const [file, targets] of graph) {
		if (!file.startsWith(TRIGGER)) continue;
		const from = roomOf(file);
		for (const target of targets) {
			const to = roomOf(target);
			if (to === undefined || to === from) continue;
			const name = `${relative(TRIGGER, file)} -> ${relative(TRIGGER, target)}`;
			if (!target.endsWith(`${to}/index.ts`)) found.push(`${name}: not through the door`);
			if (from !== undefined && FLOORS.indexOf(to) > FLOORS.indexOf(from))
				found.push(`${name}: up a floor`);
		}
	}
	return found;
}

describe("the polling trigger's rooms", () => {
	const graph = importGraph(tsFiles(TRIGGER));

	it('has its four rooms, each with a door', () => {
		for (const room of FLOORS) expect(existsSync(join(TRIGGER, room, 'index.ts'))).toBe(true);
		expect([...graph.keys()].filter((file) => roomOf(file) !== undefined).length).toBeGreaterThan(
			10,
		);
	});

	it('finds a file that reaches into another room, or up a floor', () => {
		const judge = join(TRIGGER, 'judge', 'version.ts');
		const probe = new Map([
			[judge, [join(TRIGGER, 'memory', 'records.ts'), join(TRIGGER, 'poll', 'index.ts')]],
		]);
		expect(breaches(probe)).toEqual([
			'judge/version.ts -> memory/records.ts: not through the door',
			'judge/version.ts -> poll/index.ts: up a floor',
		]);
	});

	it('every import into a room goes through its door, and none goes up a floor', () => {
		expect(breaches(graph)).toEqual([]);
	});
});
