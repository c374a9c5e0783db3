import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ASSUMPTIONS } from '../nodes/shared/assumptions';

const root = join(__dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('README', () => {
	it('lists every assumption exactly as the code states it', () => {
		for (const [id, text] of Object.entries(ASSUMPTIONS)) {
			expect(readme).toContain(`| ${id} | ${text.replace(/\|/g, '\\|')} |`);
		}
		const listed = [...readme.matchAll(/^\| ([AD]\d+) \|/gm)].map((m) => m[1]);
		expect(listed.sort()).toEqual(Object.keys(ASSUMPTIONS).sort());
	});

	it('gives the two set-up commands, and CI runs the test one', () => {
		expect(readme).toContain('npm install && npm run demo');
		expect(readme).toContain('npm install && npm test');
		expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/npm install && npm test\b/);
	});
});
