/**
 * The polling trigger's judgement: the catalog of events, the business moments and their edges
 * and misfires, records, unreadable records and Fetch Test Event. One file, so that
 * n8n-workflow and the trigger's modules load once (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { catalog } from './catalog';
import { moments } from './moments';
import { momentEdges } from './moments.edges';
import { misfires } from './moments.misfires';
import { records } from './records';
import { testEvent } from './testEvent';
import { unreadable } from './unreadable';

part('catalog', catalog);
part('moments', moments);
part('moments.edges', momentEdges);
part('moments.misfires', misfires);
part('records', records);
part('unreadable', unreadable);
part('testEvent', testEvent);
