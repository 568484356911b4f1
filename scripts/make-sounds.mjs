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
tone(choose, 0.24, 739.99, 0.86, 0.8, 2.5); // F-sharp 5 (the tritone: suspense)
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

// Deal or No Deal (docs/product.md#live-states-and-transitions: the server asks for these by name).
// A big case opened: a low thud, then a falling minor third (a big amount is gone).
const bigCase = new Float64Array(Math.floor(RATE * 1.2));
tone(bigCase, 0.0, 110, 0.5, 0.9, 7);
tone(bigCase, 0.1, 466.16, 0.4, 0.6, 5); // Bb4
tone(bigCase, 0.35, 392.0, 0.85, 0.7, 3); // G4
// A small case opened: a light, rising two-note pop (a small amount is gone: good news).
const smallCase = new Float64Array(Math.floor(RATE * 0.5));
tone(smallCase, 0.0, 659.25, 0.2, 0.6, 9); // E5
tone(smallCase, 0.08, 987.77, 0.4, 0.7, 8); // B5
// The banker calling: a telephone ring, two bursts of 440 + 480 Hz trilled.
const banker = new Float64Array(Math.floor(RATE * 2.2));
for (const start of [0, 1.1]) {
  for (let k = 0; k < 16; k++) {
    tone(banker, start + k * 0.05, k % 2 ? 480 : 440, 0.06, 0.5, 1);
  }
}
// Deal: a bright fanfare, up a major arpeggio to a held chord.
const dealMusic = new Float64Array(Math.floor(RATE * 2.4));
[523.25, 659.25, 783.99].forEach((f, i) => tone(dealMusic, i * 0.14, f, 0.3, 0.7, 5));
for (const f of [523.25, 659.25, 783.99, 1046.5]) tone(dealMusic, 0.42, f, 1.9, 0.5, 1.6);
// Theme: the show's opening motif, a drum roll under a rising four-note line.
const theme = new Float64Array(Math.floor(RATE * 3.0));
roll(theme, 0, 1.0, 0.25);
[392.0, 493.88, 587.33, 783.99].forEach((f, i) => tone(theme, 0.9 + i * 0.22, f, 0.5, 0.65, 4));
for (const f of [392.0, 493.88, 587.33]) tone(theme, 1.78, f, 1.2, 0.45, 2);
// Thinking: a soft, even pulse that loops seamlessly (4 s, whole beats, each note decays in its beat).
const thinking = new Float64Array(Math.floor(RATE * 4.0));
const bass = [110.0, 110.0, 130.81, 123.47]; // A2 A2 C3 B2
for (let beat = 0; beat < 8; beat++) {
  tone(thinking, beat * 0.5, bass[Math.floor(beat / 2)], 0.48, 0.7, 6);
  if (beat % 2 === 1) tone(thinking, beat * 0.5 + 0.25, 880, 0.2, 0.12, 14); // a tick
}

mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'choose.wav'), wav(normalise(choose)));
writeFileSync(path.join(out, 'reveal.wav'), wav(normalise(reveal)));
writeFileSync(path.join(out, 'coin.wav'), wav(normalise(coin)));
writeFileSync(path.join(out, 'big-case-opened.wav'), wav(normalise(bigCase)));
writeFileSync(path.join(out, 'small-case-opened.wav'), wav(normalise(smallCase)));
writeFileSync(path.join(out, 'banker-calling.wav'), wav(normalise(banker)));
writeFileSync(path.join(out, 'deal-music.wav'), wav(normalise(dealMusic)));
writeFileSync(path.join(out, 'theme-music.wav'), wav(normalise(theme)));
writeFileSync(path.join(out, 'thinking-music.wav'), wav(normalise(thinking, 0.6)));
console.log(`sounds written to ${path.relative(process.cwd(), out)}`);
