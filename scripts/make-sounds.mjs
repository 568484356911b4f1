#!/usr/bin/env node
// Synthesises the game-show sounds the web app ships (apps/web/public/sounds): short 16-bit mono
// WAV files made here from sine waves and noise, so nothing copyrighted is bundled.
// Run `node scripts/make-sounds.mjs` to regenerate them.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RATE = 22_050;
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps/web/public/sounds');

function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32_767), i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A tone with a quick attack and an exponential decay, a little detuned for warmth. */
function tone(buffer, start, freq, length, gain, decay = 4) {
  const from = Math.floor(start * RATE);
  const n = Math.floor(length * RATE);
  for (let i = 0; i < n && from + i < buffer.length; i++) {
    const t = i / RATE;
    const env = Math.min(1, t / 0.01) * Math.exp(-decay * t);
    const v =
      Math.sin(2 * Math.PI * freq * t) * 0.6 +
      Math.sin(2 * Math.PI * freq * 1.003 * t) * 0.25 +
      Math.sin(2 * Math.PI * freq * 2 * t) * 0.15;
    buffer[from + i] += v * env * gain;
  }
}

/** Deterministic noise (a drum roll), so the files are the same on every run. */
function roll(buffer, start, length, gain) {
  let seed = 7;
  const from = Math.floor(start * RATE);
  const n = Math.floor(length * RATE);
  for (let i = 0; i < n && from + i < buffer.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    const noise = (seed / 0x7fffffff) * 2 - 1;
    const t = i / RATE;
    const hits = 0.55 + 0.45 * Math.abs(Math.sin(Math.PI * 18 * t)); // ~18 strokes a second
    const swell = 0.35 + 0.65 * (t / length);
    buffer[from + i] += noise * hits * swell * gain;
  }
}

function normalise(buffer, peak = 0.85) {
  const max = buffer.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;
  return buffer.map((v) => (v / max) * peak);
}

// Entering the choosing phase: a rising three-note stinger ending on a held, tense interval.
const choose = new Float64Array(Math.floor(RATE * 1.1));
tone(choose, 0.0, 392.0, 0.3, 0.7, 6); // G4
tone(choose, 0.12, 523.25, 0.3, 0.7, 6); // C5
tone(choose, 0.24, 739.99, 0.86, 0.8, 2.5); // F#5 (the tritone: suspense)
tone(choose, 0.24, 523.25, 0.86, 0.45, 2.5);

// The reveal: a short drum roll into a bright major chord.
const reveal = new Float64Array(Math.floor(RATE * 1.9));
roll(reveal, 0, 0.75, 0.35);
for (const [f, g] of [
  [523.25, 0.7], // C5
  [659.25, 0.6], // E5
  [783.99, 0.6], // G5
  [1046.5, 0.45], // C6
]) {
  tone(reveal, 0.75, f, 1.15, g, 2.2);
}

// A daily reward claimed: the classic two-step coin pickup (B5 then E6), bright and short.
const coin = new Float64Array(Math.floor(RATE * 0.55));
tone(coin, 0.0, 987.77, 0.09, 0.6, 10); // B5
tone(coin, 0.075, 1318.51, 0.47, 0.75, 7); // E6
tone(coin, 0.075, 2637.02, 0.3, 0.12, 12); // a glint an octave up

mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'choose.wav'), wav(normalise(choose)));
writeFileSync(path.join(out, 'reveal.wav'), wav(normalise(reveal)));
writeFileSync(path.join(out, 'coin.wav'), wav(normalise(coin)));
console.log(`sounds written to ${path.relative(process.cwd(), out)}`);
