/**
 * The transport's requests: the retry policy under injected faults, pacing per key, the steps of
 * one request, pagination, the credential and redirects. One file, so that n8n-core loads once;
 * each part (./<part>.ts) keeps its own sandbox and a fresh pacer per key (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { credential } from './credential';
import { pacing } from './pacing';
import { pagination } from './pagination';
import { redirects } from './redirects';
import { requestSteps } from './request';
import { retries } from './retry';

part('retry', retries);
part('pacing', pacing);
part('request', requestSteps);
part('pagination', pagination);
part('credential', credential);
part('redirects', redirects);
