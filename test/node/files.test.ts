/**
 * The action node's files: attachment and photo downloads, uploads from n8n binary input and
 * their size check. One file, so that n8n-core loads once; each part (./<part>.ts) keeps its own
 * sandbox (test/helpers/parts.ts).
 */
import { part } from '../helpers/parts';
import { download } from './download';
import { photos } from './photos';
import { uploadSize } from './upload-size';
import { uploads } from './uploads';

part('download', download);
part('photos', photos);
part('uploads', uploads);
part('upload-size', uploadSize);
