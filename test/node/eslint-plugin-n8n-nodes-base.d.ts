/** The plugin ships no types; the node tests use its rules and its `nodes` config. */
declare module 'eslint-plugin-n8n-nodes-base' {
	import type { ESLint, Linter } from 'eslint';

	const plugin: ESLint.Plugin & { configs: { nodes: { rules: Linter.RulesRecord } } };
	export default plugin;
}
