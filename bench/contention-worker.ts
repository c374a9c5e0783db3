/**
 * One worker of `npm run bench:contention`: boots n8n-core, says "ready",
 * waits for "go" on stdin, runs the node's Contact Get Many with Return All
 * (updated_since from the parent) and prints one JSON line with what it got.
 */
// '.node.js', not '.node': under tsx a bare '.node' resolves to the codex file InspectionBusiness.node.json.
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node.js';
import { runNode } from '../test/helpers/n8n';
import { bootN8nCore } from '../test/helpers/runtime';

async function main() {
	const { BENCH_BASE_URL, BENCH_KEY, BENCH_SINCE, BENCH_RATE } = process.env;
	if (!BENCH_BASE_URL || !BENCH_KEY || !BENCH_SINCE) throw new Error('missing BENCH_* settings');
	await bootN8nCore();
	const node = new InspectionBusiness();
	process.stdout.write('ready\n');
	await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const { items, error } = await runNode({
		node,
		parameters: {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			filters: { updated_since: BENCH_SINCE },
		},
		credentials: {
			apiKey: BENCH_KEY,
			baseUrl: BENCH_BASE_URL,
			requestsPerMinute: Number(BENCH_RATE ?? 120),
		},
	});
	const cpu = process.cpuUsage(cpuBefore);
	process.stdout.write(
		JSON.stringify({
			wallMs: Math.round(performance.now() - started),
			cpuMs: Math.round((cpu.user + cpu.system) / 1000),
			error: error ? `${error.message} ${error.description ?? ''}`.trim() : undefined,
			ids: items.map((item) => String(item.json.id)),
		}) + '\n',
	);
}

// Exit once the result line is flushed: n8n-core leaves handles open, and exiting earlier cuts the pipe.
main().then(
	() => process.stdout.write('', () => process.exit(0)),
	(error: unknown) =>
		process.stdout.write(JSON.stringify({ error: String(error), ids: [] }) + '\n', () =>
			process.exit(1),
		),
);
