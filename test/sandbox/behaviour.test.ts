/**
 * The sandbox's own behaviour: its control API, faults, hostile routes, keep-alive, webhook
 * deliveries, changes and the events they make, seeds and the command line. One file, so that the
 * sandbox's modules and n8n-core load once; each part (./<part>.ts) starts its own sandbox
 * (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { changeEvents } from './change-events';
import { changes } from './changes';
import { cli } from './cli';
import { control } from './control';
import { faults } from './faults';
import { hostileRoutes } from './hostile';
import { keepAlive } from './keep-alive';
import { seed } from './seed';
import { webhooks } from './webhooks';

part('control', control);
part('faults', faults);
part('hostile', hostileRoutes);
part('keep-alive', keepAlive);
part('webhooks', webhooks);
part('changes', changes);
part('change-events', changeEvents);
part('seed', seed);
part('cli', cli);
