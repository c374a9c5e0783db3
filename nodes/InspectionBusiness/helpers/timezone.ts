import type { IExecuteFunctions } from 'n8n-workflow';

/** The first version that reads a date without an offset in the workflow's timezone. */
const WORKFLOW_TIMEZONE_VERSION = 2;

/**
 * The timezone a date or date-time without an offset is read in. Version 1
 * sent such a value as it was given, which the API reads as UTC; reading it in
 * the workflow's timezone would move the window of a saved version 1 workflow
 * by hours (later, west of UTC, so a sync would skip changes), so version 1
 * keeps UTC. Version 2 reads it as n8n's date picker means it.
 */
export function dateTimeZone(ctx: IExecuteFunctions): string {
	return ctx.getNode().typeVersion < WORKFLOW_TIMEZONE_VERSION ? 'UTC' : ctx.getTimezone();
}
