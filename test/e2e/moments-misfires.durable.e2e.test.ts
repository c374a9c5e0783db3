/**
 * The moments where earlier versions misfired (support/moments-misfires.ts) under
 * the durable scheduler (n8n 2.45's default); moments-misfires.poller.e2e.test.ts
 * runs the same under the other scheduler, beside this one.
 * @long: waits minutes for n8n's polls (test/sequencer.js starts it early)
 */
import { misfireTests } from './support/moments-misfires';

misfireTests('durable');
