/**
 * Signed-link downloads: a failing host, where a download may go and how much it reads, file
 * names, links an attacker picks, the pinned address, and no key to the link's host. One file, so
 * that n8n-core loads once; each part (./<part>.ts) keeps its own sandbox and servers
 * (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { downloadFailures } from './download-failures';
import { downloadLimits } from './download-limits';
import { fileNames } from './filenames';
import { hostileLinks } from './hostile-links';
import { pinnedLinks } from './pinned-links';
import { signedLinks } from './signed-link';

part('download-failures', downloadFailures);
part('download-limits', downloadLimits);
part('filenames', fileNames);
part('hostile-links', hostileLinks);
part('pinned-links', pinnedLinks);
part('signed-link', signedLinks);
