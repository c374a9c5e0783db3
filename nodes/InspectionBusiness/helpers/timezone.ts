import type { IExecuteFunctions } from 'n8n-workflow';

import { isVersion1 } from './versions';

/**
 * The timezone a date or date-time without an offset is read in. Version 1
 * sent such a value as it was given, which the API reads as UTC; reading it in
 * the workflow's timezone would move the window of a saved version 1 workflow
 * by hours (later, west of UTC, so a sync would skip changes), so version 1
 * keeps UTC. Version 2 reads it as n8n's date picker means it.
 */
export function dateTimeZone(ctx: IExecuteFunctions): string {
	return isVersion1(ctx) ? 'UTC' : ctx.getTimezone();
}
