/**
 * What version 1 of the action node does differently, in one place. One
 * implementation serves both versions (InspectionBusiness.node.ts), so a
 * workflow saved on version 1 keeps doing what it did; version 2, the default,
 * changes three things:
 * - Record pickers: each operation's record-id field (`recordIdField`) is a
 *   plain ID string in version 1, a resource locator (From List, By ID, By
 *   URL) from version 2.
 * - Dates: a date or date-time without an offset is sent as given in version 1
 *   (the API reads it as UTC), and read in the workflow's timezone from
 *   version 2 (`dateTimeZone`).
 * - Simplify: version 1 keeps its own Simplify where it had one (inspections)
 *   and has none elsewhere; version 2 returns the key fields plus the ones
 *   picked in Fields (`outputShape`).
 */
import type { IDisplayOptions, IExecuteFunctions } from 'n8n-workflow';

/** The version that brought record pickers, workflow-timezone dates and the new Simplify. */
const VERSION_2 = 2;

export const isVersion1 = (ctx: IExecuteFunctions) => ctx.getNode().typeVersion < VERSION_2;

/** Display options: shown in version 1 only, or from version 2 on. */
export const ONLY_V1: IDisplayOptions['show'] = { '@version': [1] };
export const FROM_V2: IDisplayOptions['show'] = { '@version': [{ _cnd: { gte: VERSION_2 } }] };
