import sharp from 'sharp';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES, imageMessages } from '@kickback/common/http/images';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { auditLog } from '../../db/schema/audit';
import { images } from '../../db/schema/images';
import { MAX_PIXELS } from './reencode';

let t: TestApp;
let admin: TestUser;
let user: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Image Admin' });
  user = await t.signIn({ name: 'Image User' });
  moderator = await t.signIn({ role: 'Moderator', name: 'Image Moderator' });
});
afterAll(async () => {
  await t.close();
});

/** A multipart body with one file part, as a browser's FormData sends it. */
function multipart(bytes: Uint8Array, opts: { field?: string; filename?: string; contentType?: string } = {}) {
  const boundary = '----kickbacktest7MA4YWxkTrZu0gW';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'picture.png'}"\r\n` +
      `Content-Type: ${opts.contentType ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(
  bytes: Uint8Array,
  opts: { field?: string; filename?: string; contentType?: string; as?: TestUser | null } = {},
) {
  const body = multipart(bytes, opts);
  const as = opts.as === undefined ? admin : opts.as;
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/images',
    headers: {
      'x-requested-with': 'kickback',
      'content-type': body.contentType,
      ...(as ? { cookie: as.cookie } : {}),
    },
    payload: body.payload,
  });
}

const picture = (width: number, height: number, colour = '#53fc18') =>
  sharp({ create: { width, height, channels: 3, background: colour } });

const storedCount = async () => (await t.database.db.select({ n: count() }).from(images))[0]?.n ?? 0;

async function expectRefused(res: Awaited<ReturnType<typeof upload>>, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ message, fields: [{ path: 'file', message }] });
}

describe('uploading an image', () => {
  it('stores a PNG and serves it at its content address with year-long caching', async () => {
    const png = await picture(40, 30).png().toBuffer();
    const res = await upload(png, { filename: 'logo.png' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ message: imageMessages.uploaded, contentType: 'image/png', width: 40, height: 30 });
    expect(body.url).toMatch(/^\/api\/images\/[0-9a-f]{64}\.png$/);

    const served = await t.call({ url: body.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const hash = /([0-9a-f]{64})/.exec(body.url)![1];
    expect(served.headers.etag).toBe(`"${hash}"`);
    expect(served.rawPayload.length).toBe(body.bytes);
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 40, 30]);

    // An <img> sends no CSRF header and may still load it; the upload itself keeps the guard.
    const asImg = await t.app.inject({ method: 'GET', url: body.url });
    expect(asImg.statusCode).toBe(200);
    expect(asImg.headers['content-type']).toBe('image/png');
    const { payload, contentType } = multipart(png);
    const noHeader = await t.app.inject({
      method: 'POST',
      url: '/api/admin/images',
      headers: { cookie: admin.cookie, 'content-type': contentType },
      payload,
    });
    expect(noHeader.statusCode).toBe(403);

    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, hash!));
    expect(audit).toMatchObject({ action: 'image.upload', actorUserId: admin.user.id });
  });

  it('answers 304 to If-None-Match with its ETag (a list and the weak form too), and 404 for an unknown image', async () => {
    const { url } = (await upload(await picture(8, 8, '#112233').png().toBuffer())).json();
    const first = await t.call({ url });
    const etag = first.headers.etag as string;
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`]) {
      const again = await t.call({ url, headers: { 'if-none-match': header } });
      expect(again.statusCode, header).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await t.call({ url, headers: { 'if-none-match': '"something-else"' } })).statusCode).toBe(200);
    expect((await t.call({ url: `/api/images/${'0'.repeat(64)}.png` })).statusCode).toBe(404);
    // The right hash under another kind's extension is not this image.
    expect((await t.call({ url: url.replace(/\.png$/, '.gif') })).statusCode).toBe(404);
    expect((await t.call({ url: '/api/images/not-a-hash.png' })).statusCode).toBe(400);
  });

  it('serves an image it served before from this process, without reading the database again', async () => {
    const { url } = (await upload(await picture(9, 9, '#445566').png().toBuffer())).json();
    const first = await t.call({ url });
    const hash = /([0-9a-f]{64})/.exec(url)![1]!;
    await t.database.db.delete(images).where(eq(images.hash, hash));
    const again = await t.call({ url });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect((await t.call({ url: url.replace(/\.png$/, '.gif') })).statusCode).toBe(404);
  });

  it('stores the same picture once, however often it is uploaded', async () => {
    const png = await picture(12, 12, '#abcdef').png().toBuffer();
    const before = await storedCount();
    const a = (await upload(png, { filename: 'a.png' })).json();
    const b = (await upload(png, { filename: 'b.png' })).json();
    expect(b.url).toBe(a.url);
    expect(await storedCount()).toBe(before + 1);
  });

  it('six admins uploading the same new picture at once: all answered, one row (on PostgreSQL when TEST_DATABASE_URL is set)', async () => {
    const png = await picture(24, 24, '#13579b').png().toBuffer();
    const before = await storedCount();
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(png)));
    expect(results.map((r) => r.statusCode)).toEqual(new Array(6).fill(200));
    expect(new Set(results.map((r) => r.json().url)).size).toBe(1);
    expect(await storedCount()).toBe(before + 1);
  });

  it('decides the kind from the bytes, never from the name or the content type sent', async () => {
    const png = await picture(10, 10, '#ff0000').png().toBuffer();
    const res = await upload(png, { filename: 'photo.jpg', contentType: 'image/jpeg' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ contentType: 'image/png' });
    expect(res.json().url).toMatch(/\.png$/);
    expect((await t.call({ url: res.json().url })).headers['content-type']).toBe('image/png');

    const jpeg = await picture(10, 10, '#00ff00').jpeg().toBuffer();
    const asPng = await upload(jpeg, { filename: 'logo.png', contentType: 'image/png' });
    expect(asPng.json()).toMatchObject({ contentType: 'image/jpeg' });
    expect(asPng.json().url).toMatch(/\.jpg$/);
  });

  it('takes JPEG, WebP and GIF (an animation keeps its frames)', async () => {
    const jpeg = await upload(await picture(20, 10).jpeg().toBuffer());
    expect(jpeg.json()).toMatchObject({ contentType: 'image/jpeg', width: 20, height: 10 });
    const webp = await upload(await picture(20, 10).webp().toBuffer());
    expect(webp.json()).toMatchObject({ contentType: 'image/webp', width: 20, height: 10 });

    const res = await upload(await twoFrameGif());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ contentType: 'image/gif', width: 16, height: 16 });
    const served = await t.call({ url: res.json().url });
    expect((await sharp(served.rawPayload, { animated: true }).metadata()).pages).toBe(2);
  });

  it('drops EXIF (GPS included), text chunks and anything after the picture', async () => {
    const secret = 'SECRET-LOCATION-51.5N';
    const jpeg = await picture(30, 20)
      .jpeg()
      .withExif({
        IFD0: { ImageDescription: secret, Copyright: secret },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    expect(jpeg.includes(secret)).toBe(true);
    const trailer = Buffer.from(`<script>alert("${secret}")</script>`);

    const res = await upload(Buffer.concat([jpeg, trailer]), { filename: 'holiday.jpg' });
    expect(res.statusCode, res.body).toBe(200);
    const served = (await t.call({ url: res.json().url })).rawPayload;
    const meta = await sharp(served).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(served.includes(secret)).toBe(false);
    expect(served.includes('<script>')).toBe(false);

    // A PNG with a tEXt chunk and a ZIP after IEND (a PNG/ZIP polyglot): both gone.
    const png = await picture(10, 10).png().withMetadata().toBuffer();
    const withText = insertPngText(png, 'Comment', secret);
    const zipTail = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(secret)]);
    const pngRes = await upload(Buffer.concat([withText, zipTail]));
    expect(pngRes.statusCode, pngRes.body).toBe(200);
    const pngServed = (await t.call({ url: pngRes.json().url })).rawPayload;
    expect(pngServed.includes(secret)).toBe(false);
    expect(pngServed.subarray(-8).toString('latin1')).toContain('IEND');
  });
});

describe('a file that is refused changes nothing and says why on the file field', () => {
  it('refuses other kinds: SVG, HTML and TIFF named .png and sent as image/png', async () => {
    const before = await storedCount();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expectRefused(await upload(svg, { filename: 'logo.png', contentType: 'image/png' }), imageMessages.wrongType);
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    await expectRefused(await upload(html, { filename: 'a.png', contentType: 'image/png' }), imageMessages.wrongType);
    // sharp would decode a TIFF: sniffing keeps to the four kinds.
    const tiff = await picture(4, 4).tiff().toBuffer();
    await expectRefused(await upload(tiff, { filename: 'a.png', contentType: 'image/png' }), imageMessages.wrongType);
    expect(await storedCount()).toBe(before);
  });

  it('refuses an empty file, a file over the limit, and no file part', async () => {
    const before = await storedCount();
    await expectRefused(await upload(Buffer.alloc(0)), imageMessages.empty);
    // A real PNG just over the limit (stored uncompressed).
    const rows = Math.ceil((IMAGE_MAX_BYTES + 1) / 3072);
    const big = await sharp(Buffer.alloc(3072 * rows), { raw: { width: 1024, height: rows, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(IMAGE_MAX_BYTES);
    await expectRefused(await upload(big), imageMessages.tooLarge);
    await expectRefused(await upload(await picture(4, 4).png().toBuffer(), { field: 'image' }), imageMessages.noFile);
    const json = await t.call({ method: 'POST', url: '/api/admin/images', as: admin, body: { url: 'x' } });
    await expectRefused(json, imageMessages.noFile);
    expect(await storedCount()).toBe(before);
  });

  it('refuses a damaged file and a polyglot that only looks like an image', async () => {
    const before = await storedCount();
    const png = await picture(64, 64).png().toBuffer();
    await expectRefused(await upload(png.subarray(0, 60)), imageMessages.unreadable);
    // GIF header, then script: a "GIFAR"-style polyglot that decodes as no image.
    const gifScript = Buffer.from('GIF89a/*\x00\x00*/=1;alert(document.domain);//');
    await expectRefused(await upload(gifScript, { filename: 'x.gif' }), imageMessages.unreadable);
    // A JPEG signature in front of an HTML page.
    const jpegHtml = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>1</script>')]);
    await expectRefused(await upload(jpegHtml), imageMessages.unreadable);
    expect(await storedCount()).toBe(before);
  });

  it('refuses a small file that decodes to too many pixels', async () => {
    const side = Math.ceil(Math.sqrt(MAX_PIXELS)) + 16;
    const bomb = await sharp({ create: { width: side, height: side, channels: 3, background: '#000000' } })
      .png({ compressionLevel: 9, palette: true })
      .toBuffer();
    expect(bomb.length).toBeLessThan(IMAGE_MAX_BYTES);
    await expectRefused(await upload(bomb), imageMessages.tooManyPixels);
  });
});

describe('who may upload', () => {
  it('answers 401 without sign-in and 403 to a User or a Moderator, storing nothing', async () => {
    const png = await picture(6, 6, '#777777').png().toBuffer();
    const before = await storedCount();
    expect((await upload(png, { as: null })).statusCode).toBe(401);
    expect((await upload(png, { as: user })).statusCode).toBe(403);
    expect((await upload(png, { as: moderator })).statusCode).toBe(403);
    expect(await storedCount()).toBe(before);
    // Anyone may see an uploaded image.
    const { url } = (await upload(png)).json();
    expect((await t.call({ url, as: null })).statusCode).toBe(200);
  });
});

/** A two-frame animated GIF built frame by frame. */
async function twoFrameGif(): Promise<Buffer> {
  const frames = await Promise.all(['#ff0000', '#0000ff'].map((c) => picture(16, 16, c).png().toBuffer()));
  return sharp(frames, { join: { animated: true } })
    .gif({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

/** `png` with a tEXt chunk put in before IEND (CRCs are not checked by the tests' readers). */
function insertPngText(png: Buffer, keyword: string, text: string): Buffer {
  const data = Buffer.from(`${keyword}\0${text}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
