/**
 * The moments where earlier versions misfired (support/moments-misfires.ts) under
 * n8n's poller (the durable scheduler off); moments-misfires.durable.e2e.test.ts
 * runs the same under the other scheduler, beside this one.
 * @long: waits minutes for n8n's polls (test/sequencer.js starts it early)
 */
import { misfireTests } from './support/moments-misfires';

misfireTests('poller');
