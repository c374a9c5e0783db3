/**
 * The transport against a hostile or broken API, and the limits that hold it: answers with no end
 * and their property test, error bodies, pages that never end, the key off the Base URL's host,
 * error mapping, the list transport's guards and local validation. One file, so that n8n-core
 * loads once; each part (./<part>.ts) keeps its own sandbox, limits and servers
 * (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { answersProperty } from './answers.property';
import { errorMapping } from './errors';
import { hostileAnswers } from './hostile-answers';
import { hostileErrors } from './hostile-errors';
import { hostileKey } from './hostile-key';
import { hostilePages } from './hostile-pages';
import { listGuards } from './list-guards';
import { validation } from './validation';

part('hostile-answers', hostileAnswers);
part('hostile-errors', hostileErrors);
part('hostile-pages', hostilePages);
part('hostile-key', hostileKey);
part('answers.property', answersProperty);
part('errors', errorMapping);
part('list-guards', listGuards);
part('validation', validation);
