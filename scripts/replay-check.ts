/**
 * Does n8n keep every delivery id the webhook trigger remembers? One n8n of its own (the
 * version N8N_VERSION picks), the v2 webhook trigger published; delivery X is posted once,
 * then delivery Y three times, one after the other. Prints the answers, the executions, and
 * which ids `workflow_entity.staticData` holds afterwards (the memory that survives a restart).
 *
 *   N8N_VERSION=1.123.81 npx tsx scripts/replay-check.ts [package.tgz]
 *
 * Without a tarball it packs this checkout. docs/notes/compat.md has the results per version.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { storedStaticData } from '../test/e2e/support/database';
import {
	REPLAY_TRIGGER,
	replayTriggerCredential,
	replayTriggerUrl,
	replayTriggerWorkflow,
} from '../test/e2e/workflows/triggers';
import { prepareInstance } from './n8n-instance';
import { ensureRuntime } from './n8n-runtime';
import { LOCAL_OWNER } from './n8n-rest';
import { PACKAGE_NAME, packPackage } from './package-tarball';
import { freePort } from './ports';
import { waitFor } from './processes';

const post = async (url: string, body: string, secret: string) => {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [REPLAY_TRIGGER.secretHeader]: secret },
		body,
		signal: AbortSignal.timeout(30_000),
	});
	return `${response.status} ${(await response.text()).trim()}`;
};

const delivery = (id: string) =>
	JSON.stringify({ id, event: 'inspection.confirmed', data: { id: randomUUID() } });

async function main(): Promise<void> {
	const work = mkdtempSync(path.join(tmpdir(), 'ib-replay-'));
	try {
		const runtime = await ensureRuntime();
		const tarball = process.argv[2];
		const packed = tarball
			? { tarball: path.resolve(tarball), name: PACKAGE_NAME, version: '0.1.0' }
			: await packPackage(work);
		const folder = await prepareInstance(runtime, path.join(work, 'n8n'), {
			...packed,
			credentials: [replayTriggerCredential()],
			workflows: [replayTriggerWorkflow()],
			published: [REPLAY_TRIGGER.id],
		});
		const server = await folder.startServer(await freePort());
		try {
			await server.rest.setupOwner(LOCAL_OWNER);
			const url = replayTriggerUrl(server.baseUrl);
			// n8n 2.x registers a published workflow's webhooks shortly after it reports ready.
			await waitFor(
				'the webhook to be registered',
				async () => (await post(url, '{}', 'wrong')).startsWith('401') || undefined,
				{ timeoutMs: 60_000, intervalMs: 500 },
			);
			const [x, y] = [randomUUID(), randomUUID()];
			const answers: string[] = [];
			for (const id of [x, y, y, y])
				answers.push(await post(url, delivery(id), REPLAY_TRIGGER.secret));
			// Executions finish and n8n saves after answering: give both a moment.
			await new Promise((resolve) => setTimeout(resolve, 8000));
			const executions = (await server.rest.executions(REPLAY_TRIGGER.id)).length;
			const stored = Object.values((await storedStaticData(folder, REPLAY_TRIGGER.id)) ?? {})
				.flatMap((node) => (node as { deliveries?: Array<[string, number]> }).deliveries ?? [])
				.map(([id]) => id);
			console.log(
				JSON.stringify(
					{
						n8n: runtime.version,
						package: tarball ?? 'this checkout',
						answers,
						executions,
						savedX: stored.includes(x),
						savedY: stored.includes(y),
					},
					null,
					2,
				),
			);
		} finally {
			await server.stop();
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
