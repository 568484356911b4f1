/**
 * Re-encodes an uploaded picture with sharp (libvips): the pixels are decoded and written anew in
 * the same kind, so nothing but the picture survives: no EXIF, GPS, XMP, ICC or text chunks (sharp
 * keeps none unless asked), no comment segments, no bytes after the image's end (a trailing ZIP or
 * script of a polyglot). A JPEG's EXIF orientation is applied to the pixels first, so the picture
 * still stands the right way up. Larger pictures are scaled down to fit MAX_SIDE; a file that will
 * not decode, or decodes to more than MAX_PIXELS (all frames), is refused before any work is done.
 */
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { imageKinds, imageMessages, type ImageKind } from '@kickback/common/http/images';

/** The longest side an image is stored at (a logo or a card never needs more). */
export const MAX_SIDE = 2048;
/** Decoded pixels an upload may hold, all frames together (a 2 MB file can claim gigapixels). */
export const MAX_PIXELS = 40_000_000;
const MAX_FRAMES = 500;

export class ImageRefused extends Error {}

export interface Reencoded {
  bytes: Buffer;
  contentType: (typeof imageKinds)[ImageKind]['contentType'];
  width: number;
  height: number;
}

function encoder(image: Sharp, kind: ImageKind): Sharp {
  switch (kind) {
    case 'png':
      return image.png();
    case 'jpeg':
      return image.jpeg({ quality: 88 });
    case 'webp':
      return image.webp({ quality: 88 });
    case 'gif':
      return image.gif();
  }
}

/** `kind` is what the bytes were sniffed as; the decoder must agree, or the file is refused. */
export async function reencodeImage(input: Uint8Array, kind: ImageKind): Promise<Reencoded> {
  // failOn 'warning': a truncated or damaged file is refused rather than half decoded.
  const options: SharpOptions = { animated: true, failOn: 'warning', limitInputPixels: MAX_PIXELS };
  let meta: Metadata;
  try {
    // The header only: the pixel budget is checked here, with a message of its own.
    meta = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefused(imageMessages.unreadable);
  }
  if (meta.format !== kind) throw new ImageRefused(imageMessages.unreadable);
  const frames = meta.pages ?? 1;
  const frameHeight = meta.pageHeight ?? meta.height;
  if (frames > MAX_FRAMES || meta.width * frameHeight * frames > MAX_PIXELS) {
    throw new ImageRefused(imageMessages.tooManyPixels);
  }
  try {
    const image = sharp(input, options)
      .autoOrient()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    const { data, info } = await encoder(image, kind).toBuffer({ resolveWithObject: true });
    const outFrames = info.pages ?? 1;
    return {
      bytes: data,
      contentType: imageKinds[kind].contentType,
      width: info.width,
      height: outFrames > 1 && info.pageHeight ? info.pageHeight : info.height,
    };
  } catch {
    throw new ImageRefused(imageMessages.unreadable);
  }
}
