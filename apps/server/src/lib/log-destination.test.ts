/**
 * The batched log destination (lib/log-destination.ts, docs/operations.md#logs): lines go out in
 * order, a flush calls back only once every line is written, and the exit path writes what waits.
 */
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BatchedLogDestination } from './log-destination';

function fileDestination(batchBytes?: number) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kickback-log-')), 'out.log');
  const fd = openSync(file, 'w');
  return {
    dest: new BatchedLogDestination(fd, batchBytes),
    read: () => readFileSync(file, 'utf8'),
    close: () => closeSync(fd),
  };
}

/** Descriptors closed only after the file's tests (see the exit test). */
const leftOpen: Array<() => void> = [];
afterAll(() => leftOpen.forEach((close) => close()));

const line = (i: number) => `{"n":${i},"pad":"${'x'.repeat(100)}"}\n`;

it('writes every line in order, in batches, and calls back from flush once all are written', async () => {
  const { dest, read, close } = fileDestination();
  for (let i = 0; i < 5000; i++) dest.write(line(i));
  // Batches went out on their own; the rest waits for a flush.
  await new Promise<void>((resolve) => dest.flush(resolve));
  const lines = read().split('\n').filter(Boolean);
  expect(lines).toHaveLength(5000);
  expect(lines.map((l) => (JSON.parse(l) as { n: number }).n)).toEqual([...Array(5000).keys()]);
  close();
});

it('holds a short line until a flush (no write per line)', async () => {
  const { dest, read, close } = fileDestination();
  dest.write(line(1));
  await new Promise((r) => setTimeout(r, 50));
  expect(read()).toBe('');
  await new Promise<void>((resolve) => dest.flush(resolve));
  expect(read()).toBe(line(1));
  close();
});

it('keeps lines whole and in order across batches: non-ASCII text, and a line longer than a batch', async () => {
  const { dest, read, close } = fileDestination(1024);
  const written: string[] = [];
  for (let i = 0; i < 300; i++) {
    const text =
      i % 50 === 7 ? `{"n":${i},"long":"${'é€😀'.repeat(400)}"}\n` : `{"n":${i},"name":"Zoë ${'€'.repeat(i % 40)}"}\n`;
    written.push(text);
    dest.write(text);
  }
  await new Promise<void>((resolve) => dest.flush(resolve));
  expect(read()).toBe(written.join(''));
  close();
});

it('writes what waits synchronously on exit, even with a batch in flight', () => {
  const { dest, read, close } = fileDestination(8 * 1024);
  for (let i = 0; i < 200; i++) dest.write(line(i)); // one batch in flight, the rest waiting
  dest.flushSync();
  const lines = read().split('\n').filter(Boolean);
  expect(new Set(lines.map((l) => (JSON.parse(l) as { n: number }).n)).size).toBe(200);
  // Not closed yet: the batch that was in flight may still be written, and a closed descriptor's
  // number goes to the next test's file.
  leftOpen.push(close);
});
