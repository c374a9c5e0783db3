export interface LoggedFile {
	field: string;
	filename: string;
	contentType: string;
	/** Bytes received (up to the point a size limit stopped reading). */
	size: number;
}

export interface LogEntry {
	method: string;
	path: string;
	/** Parsed; a repeated parameter is an array. */
	query: Record<string, string | string[]>;
	/** 0 when a fault reset the connection without an answer. */
	status: number;
	/** The bearer token sent, or null (signed-link downloads must show null). */
	key: string | null;
	/** Sandbox-clock time the request arrived. */
	time: string;
	fault?: string;
	/** A JSON body as read (the contact writes), so tests see what went on the wire. */
	body?: unknown;
	form?: { fields: Record<string, string>; files: LoggedFile[] };
}

export interface LogFilter {
	method?: string;
	pathPrefix?: string;
}

const MAX_ENTRIES = 20_000;

/** Every /v1 and /files request, for tests to count and inspect. */
export class RequestLog {
	private entries: LogEntry[] = [];
	private total = 0;

	add(entry: LogEntry): void {
		this.entries.push(entry);
		this.total++;
		if (this.entries.length > MAX_ENTRIES)
			this.entries.splice(0, this.entries.length - MAX_ENTRIES);
	}

	list(filter: LogFilter = {}): { count: number; data: LogEntry[] } {
		const method = filter.method?.toUpperCase();
		const data = this.entries.filter(
			(e) =>
				(!method || e.method === method) &&
				(!filter.pathPrefix || e.path.startsWith(filter.pathPrefix)),
		);
		const filtered = method !== undefined || filter.pathPrefix !== undefined;
		return { count: filtered ? data.length : this.total, data };
	}

	clear(): void {
		this.entries = [];
		this.total = 0;
	}
}

export function queryRecord(search: URLSearchParams): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const name of new Set(search.keys())) {
		const values = search.getAll(name);
		out[name] = values.length > 1 ? values : values[0];
	}
	return out;
}
