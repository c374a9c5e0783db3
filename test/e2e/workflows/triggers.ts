/**
 * The trigger workflows: published before `n8n start`, so that the server
 * activates them. Both watch Globex, the sandbox organization no other e2e
 * file writes to.
 */
import type { N8nWorkflow } from '../../../scripts/n8n-instance';
import { chain, NODE_TYPES } from './build';

export const GLOBEX_CREDENTIAL = { id: 'IbSandboxGlobex1', name: 'Inspection Business sandbox (Globex)' } as const;

export const POLL_TRIGGER = { id: 'IbE2ePollTrigger', node: 'Inspection Business Trigger' } as const;

/** What the poll test changes, each with the event it must produce. */
export const POLLED_EVENTS = [
	'contact.created',
	'contact.updated',
	'inspection.confirmed',
	'inspection.rescheduled',
	'inspection.canceled',
	'inspection.published',
] as const;

export function pollTriggerWorkflow(): N8nWorkflow {
	return chain(POLL_TRIGGER.id, 'E2E: polling trigger (Globex)', [
		{
			name: POLL_TRIGGER.node,
			type: NODE_TYPES.poll,
			typeVersion: 1,
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: [...POLLED_EVENTS], options: {} },
			credentials: { inspectionBusinessApi: GLOBEX_CREDENTIAL },
		},
	]);
}
