/**
 * The action node's writes and what they refuse: Contact Create and Update, dates, Create or
 * Update, Skip Duplicates under Retry On Fail, and the spec's Errors table. One file, so that
 * n8n-core loads once; each part (./<part>.ts) keeps its own sandbox (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { contactWrite } from './contactWrite';
import { dates } from './dates';
import { errorTable } from './errors';
import { retrySafety } from './retrySafety';
import { upsert } from './upsert';

part('contactWrite', contactWrite);
part('dates', dates);
part('upsert', upsert);
part('retrySafety', retrySafety);
part('errors', errorTable);
