/**
 * Uploaded images (docs/features/uploaded-images.md): `POST /api/admin/images` takes one multipart
 * file part, sniffs its kind from the bytes, re-encodes it and stores it by content hash;
 * `GET /api/images/<hash>.<ext>` serves it. The path names the content, so it never changes: the
 * answer may be cached for a year (`immutable`), its ETag is the hash, and `If-None-Match` with it
 * answers 304. Multipart is accepted by these routes only (the plugin is registered in this scope).
 */
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  IMAGE_FIELD,
  IMAGE_MAX_BYTES,
  IMAGE_NAME,
  imageEndpoints,
  imageKinds,
  imageMessages,
} from '@kickback/common/http/images';
import { badRequest, notFound } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { ImageCache, type CachedImage } from './cache';
import { ImageRefused, reencodeImage } from './reencode';
import { findImage, kindOfContentType, storeImage } from './service';
import { sniffImageKind } from './sniff';

export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** What each process keeps of the images it served (cache.ts). */
const PROCESS_CACHE_BYTES = 32 * 1024 * 1024;

/** Whether an `If-None-Match` header names `etag` (a list, weak forms and `*` included). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The uploaded file's bytes, or a 400 naming the field for anything that is not one usable file. */
async function uploadedFile(request: FastifyRequest): Promise<{ bytes: Buffer; name: string }> {
  if (!request.isMultipart()) throw badRequest(imageMessages.noFile, IMAGE_FIELD);
  let part: MultipartFile | undefined;
  try {
    part = await request.file();
  } catch {
    throw badRequest(imageMessages.noFile, IMAGE_FIELD);
  }
  if (!part) throw badRequest(imageMessages.noFile, IMAGE_FIELD);
  if (part.fieldname !== IMAGE_FIELD) {
    part.file.resume(); // drain it: the answer is the 400
    throw badRequest(imageMessages.noFile, IMAGE_FIELD);
  }
  const bytes = await part.toBuffer();
  if (part.file.truncated) throw badRequest(imageMessages.tooLarge, IMAGE_FIELD);
  if (bytes.length === 0) throw badRequest(imageMessages.empty, IMAGE_FIELD);
  return { bytes, name: part.filename };
}

export async function imageRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, {
    // One file, read up to one byte over the limit (then `truncated` says it was too large).
    limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 20 },
    throwFileSizeLimit: false,
  });

  route(app, imageEndpoints.upload, async (request) => {
    const admin = currentUser(request);
    const file = await uploadedFile(request);
    const kind = sniffImageKind(file.bytes);
    if (!kind) throw badRequest(imageMessages.wrongType, IMAGE_FIELD);
    let image;
    try {
      image = await reencodeImage(file.bytes, kind);
    } catch (err) {
      if (err instanceof ImageRefused) throw badRequest(err.message, IMAGE_FIELD);
      throw err;
    }
    const stored = await storeImage(app.db, image, admin, file.name);
    request.log.info({ hash: stored.hash, bytes: image.bytes.length, created: stored.created }, 'image uploaded');
    return {
      message: imageMessages.uploaded,
      url: stored.url,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      bytes: image.bytes.length,
    };
  });

  const served = new ImageCache(PROCESS_CACHE_BYTES);
  /** The image named `hash` with extension `extension`, from this process's cache or the database. */
  const imageNamed = async (hash: string, extension: string | undefined): Promise<CachedImage | null> => {
    let image = served.get(hash);
    if (!image) {
      const row = await findImage(app.db, hash);
      if (!row) return null;
      const bytes = Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      image = { hash: row.hash, contentType: row.contentType, bytes };
      served.set(image);
    }
    return imageKinds[kindOfContentType(image.contentType)].extension === extension ? image : null;
  };

  route(app, imageEndpoints.show, { compress: false }, async (request, reply) => {
    const [, hash = '', extension] = IMAGE_NAME.exec(request.params.name) ?? [];
    const image = await imageNamed(hash, extension);
    if (!image) throw notFound(imageMessages.notFound);
    const etag = `"${image.hash}"`;
    reply.header('etag', etag).header('cache-control', IMAGE_CACHE_CONTROL).header('x-content-type-options', 'nosniff');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type(image.contentType).send(image.bytes);
  });
}
