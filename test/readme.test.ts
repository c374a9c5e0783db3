/**
 * The user documents stay readable and whole: the README starts with Start here,
 * then has the sections of n8n's community-node template in its order, stays under
 * its word budget (so does CONTRIBUTING.md), its pictures exist, every
 * relative link of the README, CONTRIBUTING.md and docs/ lands on a file and
 * heading that exist, every documentation link the nodes and the credentials
 * show in the editor lands on a README heading, and each version has a
 * CHANGELOG entry. What the documents say against the code: docs.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

import { InspectionBusinessApi } from '../credentials/InspectionBusinessApi.credentials';
import { InspectionBusinessWebhookApi } from '../credentials/InspectionBusinessWebhookApi.credentials';

const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const readme = read('README.md');
const REPOSITORY = 'https://github.com/inspection-business/n8n-nodes-inspection-business';

/** The pages the README links, and the developer pages beside them. */
const DOCS = readdirSync(join(root, 'docs'))
	.filter((file) => file.endsWith('.md'))
	.map((file) => `docs/${file}`);

/**
 * Pages another branch writes; until it lands, links to them are not checked (once the file
 * exists, they are, anchors included).
 */
const LANDING_ELSEWHERE = new Set(['docs/assumptions.md']);

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

const readmeAnchors = anchorsOf(readme);

/** The codex files next to each node, as n8n reads them from dist/. */
const codexFiles = readdirSync(join(root, 'nodes'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && entry.name !== 'shared')
	.map((entry) => `nodes/${entry.name}/${entry.name}.node.json`);

/** `## Heading` lines of the README, in order. */
const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);

/** The text of one `## ` or `### ` section, up to the next heading of its level or above. */
function section(heading: string, level = 2): string {
	const marks = '#'.repeat(level);
	const start = readme.indexOf(`\n${marks} ${heading}\n`);
	expect(start).toBeGreaterThanOrEqual(0);
	const next = new RegExp(`\\n#{1,${level}} `, 'g');
	next.lastIndex = start + 1;
	const end = next.exec(readme)?.index ?? -1;
	return readme.slice(start, end < 0 ? undefined : end);
}

describe('README', () => {
	it("starts with Start here, then has the sections of n8n's community-node template in its order", () => {
		expect(sections).toEqual([
			'Start here',
			'Installation',
			'Operations',
			'Credentials',
			'Compatibility',
			'Usage',
			'Troubleshooting',
			'Resources',
			'Version history',
			'License',
		]);
	});

	it('is at most 3,000 words, as wc -w counts them', () => {
		expect(wordCount(readme)).toBeLessThanOrEqual(3000);
	});

	it('gives the two commands that try it without an account under Installation, and CI runs the test one', () => {
		const tryIt = section('Try it without an account', 3);
		expect(section('Installation')).toContain(tryIt.trim());
		expect(tryIt).toContain('npm install && npm run demo');
		expect(tryIt).toContain('npm install && npm test');
		expect(tryIt).toContain('(CONTRIBUTING.md)');
		expect(read('.ci/run')).toMatch(/npm install && npm test\b/);
	});

	it('says where the package must be installed in queue mode', () => {
		expect(section('Installation')).toMatch(/main, every\s+worker and every webhook process/);
	});

	it('shows a picture of each example job, and every picture exists', () => {
		const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((match) => match[1]);
		expect(pictures.length).toBeGreaterThanOrEqual(3);
		expect(pictures.filter((picture) => !existsSync(join(root, picture)))).toEqual([]);
	});

	it('links each reference page in docs/', () => {
		for (const page of [
			'docs/operations.md',
			'docs/polling-trigger.md',
			'docs/webhook-trigger.md',
			'docs/reliability.md',
			'docs/performance.md',
			'docs/assumptions.md',
		]) {
			expect(readme).toContain(`](${page}`);
		}
	});
});

describe('CONTRIBUTING.md', () => {
	it('is at most 2,500 words, as wc -w counts them', () => {
		expect(wordCount(read('CONTRIBUTING.md'))).toBeLessThanOrEqual(2500);
	});
});

describe('relative links of the README, CONTRIBUTING.md and docs/', () => {
	/** Every `](target)` that is not a web address, with the file it appears in. */
	const links = ['README.md', 'CONTRIBUTING.md', ...DOCS].flatMap((file) =>
		[...read(file).matchAll(/\]\(([^)\s]+)\)/g)]
			.map((match) => match[1])
			.filter((target) => !/^[a-z]+:/i.test(target))
			.map((target) => ({ file, target })),
	);

	/** Why a link does not land, or undefined when it does. */
	function broken({ file, target }: { file: string; target: string }): string | undefined {
		const [path, anchor] = target.split('#');
		const landing = path === '' ? file : normalize(join(dirname(file), path)).replace(/\/$/, '');
		if (LANDING_ELSEWHERE.has(landing) && !existsSync(join(root, landing))) return undefined;
		if (!existsSync(join(root, landing))) return `${file}: ${target} (no such file)`;
		if (anchor === undefined || !landing.endsWith('.md')) return undefined;
		return anchorsOf(read(landing)).has(anchor) ? undefined : `${file}: ${target} (no heading)`;
	}

	it('land on a file and a heading that exist', () => {
		expect(links.length).toBeGreaterThan(40);
		expect(links.map(broken).filter(Boolean)).toEqual([]);
	});

	it('the check catches a missing file and a missing heading', () => {
		expect(broken({ file: 'README.md', target: 'docs/gone.md' })).toMatch(/no such file/);
		expect(broken({ file: 'README.md', target: '#no-such-heading' })).toMatch(/no heading/);
		expect(broken({ file: 'docs/reliability.md', target: '../README.md#operations' })).toBe(
			undefined,
		);
	});
});

describe('documentation links shown in the editor', () => {
	const links = [
		...codexFiles.flatMap((file) => {
			const codex = JSON.parse(read(file)) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			return Object.values(codex.resources)
				.flat()
				.map(({ url }) => ({ file, url }));
		}),
		{ file: 'credential', url: new InspectionBusinessApi().documentationUrl },
		{ file: 'webhook credential', url: new InspectionBusinessWebhookApi().documentationUrl },
	];

	it('come from a codex file next to each node', () => {
		expect(codexFiles).toHaveLength(3);
		for (const file of codexFiles) expect(existsSync(join(root, file))).toBe(true);
	});

	it("each land on a heading of the repository's README", () => {
		expect(links.length).toBeGreaterThanOrEqual(5);
		const broken = links.filter(
			({ url }) =>
				!url.startsWith(`${REPOSITORY}#`) || !readmeAnchors.has(url.slice(REPOSITORY.length + 1)),
		);
		expect(broken).toEqual([]);
	});
});

describe('CHANGELOG.md', () => {
	it("has an entry for package.json's version", () => {
		const { version } = JSON.parse(read('package.json')) as { version: string };
		expect(read('CHANGELOG.md')).toMatch(
			new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\]`, 'm'),
		);
	});
});
