/**
 * The sandbox against the documents: the API contract and the OpenAPI document. One file; each
 * part (./<part>.ts) starts its own sandbox (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { contract } from './contract';
import { openapi } from './openapi';

part('contract', contract);
part('openapi', openapi);
