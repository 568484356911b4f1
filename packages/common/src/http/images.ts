/**
 * Uploaded images (products, challenges, the site's logo): an admin uploads a file with
 * `POST /api/admin/images` (multipart, one part named `file`) and gets back a site path
 * (`/api/images/<sha-256>.<ext>`) to put where an image URL goes. The server sniffs the type from
 * the bytes, re-encodes the picture (no metadata, nothing after it) and stores it once per content
 * hash; the path never changes, so it is served with year-long caching (docs/features/uploaded-images.md).
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** The largest file an admin may upload. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/** The multipart part that carries the file. */
export const IMAGE_FIELD = 'file';

/** The kinds accepted, each with its content type and the extension its path ends with. */
export const imageKinds = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  webp: { contentType: 'image/webp', extension: 'webp' },
  gif: { contentType: 'image/gif', extension: 'gif' },
} as const;
export type ImageKind = keyof typeof imageKinds;

/** What the file input offers (the server still decides from the bytes). */
export const IMAGE_ACCEPT = Object.values(imageKinds)
  .map((k) => k.contentType)
  .join(',');

export const imageMessages = {
  noFile: `Choose an image file to upload (the form part "${IMAGE_FIELD}").`,
  empty: 'The image file is empty: choose another file.',
  tooLarge: `The image is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MB: make it smaller and upload it again.`,
  wrongType: 'The file is not a PNG, JPEG, WebP or GIF image (judged by its content, not its name).',
  unreadable: 'The image could not be read: the file is damaged or is not really an image.',
  tooManyPixels: 'The image has too many pixels (or frames): make it smaller and upload it again.',
  uploaded: 'Image uploaded.',
  notFound: 'No such image.',
} as const;

/** `<64 hex digits>.<extension>`: the content hash of the stored bytes and their kind. */
export const IMAGE_NAME = /^([0-9a-f]{64})\.(png|jpg|webp|gif)$/;

/** The site path an image is served at. */
export const imagePath = (hash: string, kind: ImageKind): string => `/api/images/${hash}.${imageKinds[kind].extension}`;

export const uploadedImage = z.object({
  message: z.string(),
  /** The site path to store as the image URL. */
  url: z.string(),
  contentType: z.string(),
  width: z.number(),
  height: z.number(),
  bytes: z.number(),
});
export type UploadedImage = z.infer<typeof uploadedImage>;

export const imageEndpoints = {
  /** Multipart, one file part named `file` (no JSON body): Admins, who edit products, challenges and branding. */
  upload: defineEndpoint({
    method: 'POST',
    path: '/api/admin/images',
    access: 'admin',
    response: uploadedImage,
  }),
  /** The image's bytes with their content type, an ETag and year-long caching (the path never changes). */
  show: defineEndpoint({
    method: 'GET',
    path: '/api/images/:name',
    access: 'visitor',
    params: z.object({
      name: z.string().regex(IMAGE_NAME, 'The image name is its content hash and extension, like <hash>.png.'),
    }),
    response: z.unknown(),
    /** 304 Not Modified for an `If-None-Match` that names it (no body). */
    alsoStatus: [304],
  }),
};
