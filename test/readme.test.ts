/**
 * The user documents stay true: the README has the sections of n8n's
 * community-node template, its pictures exist, every documentation link the
 * nodes and the credential show in the editor lands on a README heading, and
 * each version has a CHANGELOG entry. (The assumptions are checked against
 * docs/assumptions.md in assumptions.test.ts.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { InspectionBusinessApi } from '../credentials/InspectionBusinessApi.credentials';

const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const readme = read('README.md');
const REPOSITORY = 'https://github.com/inspection-business/n8n-nodes-inspection-business';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
const readmeAnchors = new Set(
	[...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])),
);

/** The codex files next to each node, as n8n reads them from dist/. */
const codexFiles = readdirSync(join(root, 'nodes'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && entry.name !== 'shared')
	.map((entry) => `nodes/${entry.name}/${entry.name}.node.json`);

describe('README', () => {
	it("has the sections of n8n's community-node README template", () => {
		for (const section of [
			'Installation',
			'Operations',
			'Credentials',
			'Compatibility',
			'Usage',
			'Resources',
			'Version history',
		]) {
			expect(readme).toMatch(new RegExp(`^## ${section}$`, 'm'));
		}
	});

	it('gives the two set-up commands at the top, and CI runs the test one', () => {
		const top = readme.slice(0, readme.indexOf('## Installation'));
		expect(top).toContain('npm install && npm run demo');
		expect(top).toContain('npm install && npm test');
		expect(read('.ci/run')).toMatch(/npm install && npm test\b/);
	});

	it('shows a picture of each example workflow, and every picture exists', () => {
		const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((match) => match[1]);
		expect(pictures.length).toBeGreaterThanOrEqual(3);
		expect(pictures.filter((picture) => !existsSync(join(root, picture)))).toEqual([]);
	});

	it('does not claim that pages stream into the output', () => {
		expect(readme).not.toMatch(/stream into the output/i);
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
	];

	it('come from a codex file next to each node', () => {
		expect(codexFiles).toHaveLength(3);
		for (const file of codexFiles) expect(existsSync(join(root, file))).toBe(true);
	});

	it("each land on a heading of the repository's README", () => {
		expect(links.length).toBeGreaterThanOrEqual(4);
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
