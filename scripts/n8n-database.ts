/**
 * Reads an n8n user folder's SQLite database directly, with n8n's own Node 24 (`node:sqlite`):
 * what n8n persisted (a workflow's static data, its executions), independent of the REST API,
 * whose execution paging differs between n8n lines. Read-only; n8n may be running.
 */
import path from 'node:path';
import type { N8nRuntime } from './n8n-runtime';
import { parseFlatted } from './n8n-rest';
import { run } from './processes';

const QUERY_SCRIPT = `
const { DatabaseSync } = require('node:sqlite');
const [file, sql, params] = process.argv.slice(1);
const db = new DatabaseSync(file, { readOnly: true });
db.exec('PRAGMA busy_timeout = 10000');
process.stdout.write(JSON.stringify(db.prepare(sql).all(...JSON.parse(params))));
db.close();
`;

export interface StoredExecution {
	id: string;
	status: string;
	/** When the execution finished (ms since epoch), if it has. */
	stoppedAt?: number;
	/** The run data, decoded (n8n stores it "flatted"). */
	data: unknown;
}

export class N8nDatabase {
	constructor(
		private readonly runtime: N8nRuntime,
		/** N8N_USER_FOLDER: the database is `<folder>/.n8n/database.sqlite`. */
		private readonly userFolder: string,
	) {}

	async query<T>(sql: string, params: Array<string | number> = []): Promise<T[]> {
		const file = path.join(this.userFolder, '.n8n', 'database.sqlite');
		const { stdout } = await run(
			this.runtime.node,
			['--no-warnings', '-e', QUERY_SCRIPT, file, sql, JSON.stringify(params)],
			{ env: this.runtime.env(), timeoutMs: 60_000 },
		);
		return JSON.parse(stdout) as T[];
	}

	/** A workflow's static data as n8n saved it (null before its first save). */
	async staticData(workflowId: string): Promise<Record<string, unknown> | null> {
		const [row] = await this.query<{ staticData: string | null }>(
			'SELECT staticData FROM workflow_entity WHERE id = ?',
			[workflowId],
		);
		return row?.staticData ? (JSON.parse(row.staticData) as Record<string, unknown>) : null;
	}

	/** Every execution of a workflow, oldest first, with its decoded run data. */
	async executions(workflowId: string): Promise<StoredExecution[]> {
		const rows = await this.query<{
			id: number | string;
			status: string;
			stoppedAt: string | null;
			data: string | null;
		}>(
			`SELECT e.id AS id, e.status AS status, e.stoppedAt AS stoppedAt, d.data AS data
			 FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id
			 WHERE e.workflowId = ? ORDER BY e.id`,
			[workflowId],
		);
		return rows.map((row) => ({
			id: String(row.id),
			status: row.status,
			// SQLite keeps UTC times as text, "2026-11-24 10:00:00.000".
			stoppedAt: row.stoppedAt ? Date.parse(`${row.stoppedAt.replace(' ', 'T')}Z`) : undefined,
			data: row.data ? parseFlatted(row.data) : null,
		}));
	}
}
