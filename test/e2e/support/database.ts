/**
 * Reads n8n's own database (sqlite, in the user folder) the way n8n stored it, for what the
 * REST API does not show: a workflow's static data, where triggers keep their memory.
 */
import path from 'node:path';
import type { N8nUserFolder } from '../../../scripts/n8n-instance';
import { run } from '../../../scripts/processes';

/** Run by n8n's Node 24 (node:sqlite), read-only beside the running n8n: argv = database, workflow id. */
const READ_STATIC_DATA = `
const { DatabaseSync } = require('node:sqlite');
const [database, id] = process.argv.slice(1);
const db = new DatabaseSync(database, { readOnly: true });
const row = db.prepare('SELECT staticData FROM workflow_entity WHERE id = ?').get(id);
db.close();
process.stdout.write(row?.staticData ?? 'null');
`;

/** `workflow_entity.staticData` of one workflow, parsed (null when n8n stored none). */
export async function storedStaticData(
	userFolder: N8nUserFolder,
	workflowId: string,
): Promise<Record<string, unknown> | null> {
	const database = path.join(userFolder.folder, '.n8n', 'database.sqlite');
	const { stdout } = await run(
		userFolder.runtime.node,
		['--no-warnings', '-e', READ_STATIC_DATA, database, workflowId],
		{ env: userFolder.runtime.env(), timeoutMs: 60_000 },
	);
	return JSON.parse(stdout) as Record<string, unknown> | null;
}
