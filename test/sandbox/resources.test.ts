/**
 * The sandbox's API resources: attachments, keys, contacts, inspections, photos, queries and
 * pagination. One file, so that the sandbox's and n8n-workflow's modules load once; each part
 * (./<part>.ts) starts its own sandbox (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { attachmentLists } from './attachment-lists';
import { attachmentUploads } from './attachment-uploads';
import { auth } from './auth';
import { contactFilters } from './contact-filters';
import { contactLinks } from './contact-links';
import { contactWrite } from './contact-write';
import { inspections } from './inspections';
import { pagination } from './pagination';
import { photos } from './photos';
import { query } from './query';

part('attachment-lists', attachmentLists);
part('attachment-uploads', attachmentUploads);
part('auth', auth);
part('contact-filters', contactFilters);
part('contact-links', contactLinks);
part('contact-write', contactWrite);
part('inspections', inspections);
part('photos', photos);
part('query', query);
part('pagination', pagination);
