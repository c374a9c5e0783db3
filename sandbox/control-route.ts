/** The shape of a control route, shared by control.ts and control-people.ts (kept apart so neither imports the other). */
import type { RenderContext } from './context';
import type { Reply } from './http';
import type { SandboxState } from './state';

export interface ControlRequest {
	state: SandboxState;
	body: Record<string, unknown>;
	params: string[];
	search: URLSearchParams;
	render: RenderContext;
}
export type ControlRoute = [method: string, pattern: RegExp, handler: (r: ControlRequest) => Reply];
