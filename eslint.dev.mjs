// Lint for code that is never shipped: sandbox/, test/, scripts/ and bench/ (each folder's
// eslint.config.mjs re-exports this). n8n's community-node rules (no console,
// process, fs, ...) are for the package's runtime code; the root eslint.config.mjs,
// n8n's unchanged default in strict mode, applies them to nodes/ and credentials/.
// `npm run lint` enables ESLint's per-file config lookup so each folder gets its own.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config({
	files: ['**/*.ts'],
	extends: [js.configs.recommended, tseslint.configs.recommended],
	rules: {
		'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
	},
});
