/**
 * The action node's reads: Get, Get Many, version 2's reads, resource locators and the editor's
 * pickers. One file, so that n8n-core loads once; each part (./<part>.ts) keeps its own sandbox
 * (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { get } from './get';
import { getMany } from './getMany';
import { locators } from './locators';
import { pickers } from './methods';
import { reads } from './reads';

part('get', get);
part('getMany', getMany);
part('reads', reads);
part('locators', locators);
part('methods', pickers);
