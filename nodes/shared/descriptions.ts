/**
 * What the nodes panel says about the package. n8n folds the polling trigger
 * into the action node's entry (their names differ only by "Trigger") and
 * shows the trigger's description for both, above the triggers and the
 * actions; so that text starts with the action node's and adds the trigger's.
 * The webhook trigger has an entry of its own.
 */
export const ACTION_NODE_DESCRIPTION =
	'Read and write contacts, inspections, agencies, tags, appointments (inspection events) and attachments of an inspection business';

export const POLLING_TRIGGER_DESCRIPTION = `${ACTION_NODE_DESCRIPTION}, and start a workflow when contacts, inspections, appointments or attachments change (the trigger polls the API)`;
