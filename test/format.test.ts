/**
 * Every tracked source file follows the n8n starter's Prettier config
 * (.prettierrc.js), so CI fails on a file that `npm run format` would change.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

it('every file is formatted with the starter Prettier config', () => {
	const prettier = path.join(root, 'node_modules', '.bin', 'prettier');
	let output = '';
	try {
		execFileSync(prettier, ['--list-different', '.'], { cwd: root, encoding: 'utf8' });
	} catch (error) {
		output = String((error as { stdout?: string }).stdout ?? error);
	}
	expect(output.trim().split('\n').filter(Boolean)).toEqual([]);
}, 180_000);
