import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ASSUMPTIONS } from '../nodes/shared/assumptions';

const root = join(__dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('README', () => {
	it('lists every assumption exactly as the code states it', () => {
		// Rows as Prettier aligns them: `| A1  | text … |`, cells trimmed, Markdown escapes (`\|`, `\*`) undone.
		const rows = new Map(
			[...readme.matchAll(/^\| ([AD]\d+) +\| (.*?) *\|$/gm)].map((m) => [
				m[1],
				m[2].replace(/\\([|*_`\\])/g, '$1'),
			]),
		);
		expect(Object.fromEntries(rows)).toEqual(ASSUMPTIONS);
	});

	it('gives the two set-up commands, and CI runs the test one', () => {
		expect(readme).toContain('npm install && npm run demo');
		expect(readme).toContain('npm install && npm test');
		expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/npm install && npm test\b/);
	});
});
