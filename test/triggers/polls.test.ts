/**
 * The polling trigger through n8n-core's PollContext: a hostile API's pages, and two polls of one
 * node at once. One file, so that n8n-core loads once; each part (./<part>.ts) keeps its own
 * sandbox (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { hostilePolls } from './poll.hostile';
import { overlappingPolls } from './poll.overlap';

part('poll.hostile', hostilePolls);
part('poll.overlap', overlappingPolls);
