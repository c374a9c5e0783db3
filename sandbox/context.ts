import type { IncomingMessage } from 'node:http';
import type { EndpointKey } from '../nodes/shared/endpoints';
import type { Reply } from './http';
import type { OrgId } from './keys';
import type { LogEntry } from './requestlog';
import type { SandboxState } from './state';

/** What a v1 handler gets: the caller's organization, the raw request and the sandbox. */
export interface ApiContext {
	state: SandboxState;
	org: OrgId;
	req: IncomingMessage;
	search: URLSearchParams;
	pathParams: Record<string, string>;
	/** Scheme, host and port the caller used: signed links point there. */
	origin: string;
	logEntry: LogEntry;
}

export type ApiHandler = (ctx: ApiContext) => Reply | Promise<Reply>;
export type ApiHandlers = Record<EndpointKey, ApiHandler>;

/** Enough to render a record with fresh signed links. */
export type RenderContext = Pick<ApiContext, 'state' | 'origin'>;
