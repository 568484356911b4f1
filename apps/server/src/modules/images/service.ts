/**
 * Stored images: the re-encoded bytes, one row per content (the SHA-256 of the bytes is the key),
 * so the same picture uploaded twice, or by two admins at once, is stored once (the key decides a
 * race: the second insert does nothing). An upload is audited, new or not.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { imagePath, imageKinds, type ImageKind } from '@kickback/common/http/images';
import type { Db, DbOrTx } from '../../db/client';
import { images, type ImageRow } from '../../db/schema/images';
import { actorOf, recordAudit } from '../audit/service';
import type { Reencoded } from './reencode';

export interface StoredImage {
  hash: string;
  url: string;
  /** False when the same picture was already stored. */
  created: boolean;
}

const kindByContentType = new Map(
  (Object.keys(imageKinds) as ImageKind[]).map((kind) => [imageKinds[kind].contentType as string, kind]),
);

/** The kind of a stored content type (the table's CHECK allows only the four). */
export function kindOfContentType(contentType: string): ImageKind {
  const kind = kindByContentType.get(contentType);
  if (!kind) throw new Error(`not an image content type: ${contentType}`);
  return kind;
}

export async function storeImage(
  db: Db,
  image: Reencoded,
  uploader: { id: string; username: string },
  originalName: string,
): Promise<StoredImage> {
  const hash = createHash('sha256').update(image.bytes).digest('hex');
  const url = imagePath(hash, kindOfContentType(image.contentType));
  const created = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(images)
      .values({
        hash,
        contentType: image.contentType,
        bytes: image.bytes,
        width: image.width,
        height: image.height,
        uploadedBy: uploader.id,
      })
      .onConflictDoNothing({ target: images.hash })
      .returning({ hash: images.hash });
    await recordAudit(tx, actorOf(uploader), {
      action: 'image.upload',
      targetType: 'image',
      targetId: hash,
      after: {
        url,
        contentType: image.contentType,
        width: image.width,
        height: image.height,
        bytes: image.bytes.length,
        name: originalName.slice(0, 200),
        stored: inserted.length > 0 ? 'new' : 'already stored',
      },
    });
    return inserted.length > 0;
  });
  return { hash, url, created };
}

export async function findImage(db: DbOrTx, hash: string): Promise<ImageRow | null> {
  const [row] = await db.select().from(images).where(eq(images.hash, hash));
  return row ?? null;
}
