/**
 * Generated artwork for the demo catalogue: every prize picture and banner is an SVG drawn here from
 * a few parameters (a character's shape and palette, the kind of prize), so the demo content is our
 * own and the same seed always draws the same pictures.
 */

export type CreatureShape = 'rabbit' | 'cat' | 'panda' | 'bear' | 'penguin' | 'ghost';
export type PrizeKind =
  'plush' | 'big_plush' | 'mascot' | 'cushion' | 'acrylic' | 'mug' | 'figure' | 'sweets' | 'blanket';

export interface Palette {
  readonly body: string;
  readonly accent: string;
  readonly background: string;
  readonly cheek: string;
}

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small deterministic pseudo-random sequence (mulberry32), so pictures are stable per seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function ears(shape: CreatureShape, p: Palette, cx: number, cy: number, r: number): string {
  switch (shape) {
    case 'rabbit':
      return `<ellipse cx="${cx - r * 0.45}" cy="${cy - r * 1.25}" rx="${r * 0.22}" ry="${r * 0.62}" fill="${p.body}" stroke="#0002" stroke-width="3"/>
<ellipse cx="${cx + r * 0.45}" cy="${cy - r * 1.25}" rx="${r * 0.22}" ry="${r * 0.62}" fill="${p.body}" stroke="#0002" stroke-width="3"/>
<ellipse cx="${cx - r * 0.45}" cy="${cy - r * 1.22}" rx="${r * 0.1}" ry="${r * 0.45}" fill="${p.cheek}"/>
<ellipse cx="${cx + r * 0.45}" cy="${cy - r * 1.22}" rx="${r * 0.1}" ry="${r * 0.45}" fill="${p.cheek}"/>`;
    case 'cat':
      return `<path d="M${cx - r * 0.85} ${cy - r * 0.35} L${cx - r * 0.7} ${cy - r * 1.15} L${cx - r * 0.2} ${cy - r * 0.8} Z" fill="${p.body}" stroke="#0002" stroke-width="3"/>
<path d="M${cx + r * 0.85} ${cy - r * 0.35} L${cx + r * 0.7} ${cy - r * 1.15} L${cx + r * 0.2} ${cy - r * 0.8} Z" fill="${p.body}" stroke="#0002" stroke-width="3"/>`;
    case 'panda':
      return `<circle cx="${cx - r * 0.72}" cy="${cy - r * 0.72}" r="${r * 0.3}" fill="#2b2233"/><circle cx="${cx + r * 0.72}" cy="${cy - r * 0.72}" r="${r * 0.3}" fill="#2b2233"/>`;
    case 'bear':
      return `<circle cx="${cx - r * 0.72}" cy="${cy - r * 0.72}" r="${r * 0.3}" fill="${p.body}" stroke="#0002" stroke-width="3"/><circle cx="${cx + r * 0.72}" cy="${cy - r * 0.72}" r="${r * 0.3}" fill="${p.body}" stroke="#0002" stroke-width="3"/>
<circle cx="${cx - r * 0.72}" cy="${cy - r * 0.72}" r="${r * 0.15}" fill="${p.accent}"/><circle cx="${cx + r * 0.72}" cy="${cy - r * 0.72}" r="${r * 0.15}" fill="${p.accent}"/>`;
    case 'penguin':
      return `<path d="M${cx - r * 0.3} ${cy - r * 0.98} Q${cx} ${cy - r * 1.3} ${cx + r * 0.3} ${cy - r * 0.98}" fill="${p.accent}"/>`;
    case 'ghost':
      return `<path d="M${cx + r * 0.1} ${cy - r} q${r * 0.3} ${-r * 0.35} ${r * 0.45} ${-r * 0.1}" stroke="${p.body}" stroke-width="${r * 0.12}" fill="none" stroke-linecap="round"/>`;
  }
}

/** The character's face, centred on (cx, cy) with radius r. */
export function creature(shape: CreatureShape, p: Palette, cx: number, cy: number, r: number): string {
  const head =
    shape === 'ghost'
      ? `<path d="M${cx - r} ${cy + r * 0.9} L${cx - r} ${cy} A${r} ${r} 0 0 1 ${cx + r} ${cy} L${cx + r} ${cy + r * 0.9} q${-r / 3} ${-r * 0.3} ${(-r / 3) * 2} 0 q${-r / 3} ${-r * 0.3} ${(-r / 3) * 2} 0 q${-r / 3} ${-r * 0.3} ${(-r / 3) * 2} 0 Z" fill="${p.body}" stroke="#0002" stroke-width="3"/>`
      : `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${p.body}" stroke="#0002" stroke-width="3"/>`;
  const belly =
    shape === 'penguin'
      ? `<ellipse cx="${cx}" cy="${cy + r * 0.25}" rx="${r * 0.68}" ry="${r * 0.62}" fill="#fffdf8"/>`
      : '';
  const patches =
    shape === 'panda'
      ? `<ellipse cx="${cx - r * 0.36}" cy="${cy - r * 0.05}" rx="${r * 0.2}" ry="${r * 0.26}" fill="#2b2233" transform="rotate(-20 ${cx - r * 0.36} ${cy})"/><ellipse cx="${cx + r * 0.36}" cy="${cy - r * 0.05}" rx="${r * 0.2}" ry="${r * 0.26}" fill="#2b2233" transform="rotate(20 ${cx + r * 0.36} ${cy})"/>`
      : '';
  const eye = shape === 'panda' ? '#fff' : '#2b2233';
  const face = `<circle cx="${cx - r * 0.35}" cy="${cy}" r="${r * 0.09}" fill="${eye}"/><circle cx="${cx + r * 0.35}" cy="${cy}" r="${r * 0.09}" fill="${eye}"/>
<ellipse cx="${cx - r * 0.55}" cy="${cy + r * 0.28}" rx="${r * 0.15}" ry="${r * 0.09}" fill="${p.cheek}" opacity="0.85"/><ellipse cx="${cx + r * 0.55}" cy="${cy + r * 0.28}" rx="${r * 0.15}" ry="${r * 0.09}" fill="${p.cheek}" opacity="0.85"/>
${shape === 'penguin' ? `<path d="M${cx - r * 0.12} ${cy + r * 0.15} L${cx + r * 0.12} ${cy + r * 0.15} L${cx} ${cy + r * 0.3} Z" fill="#f2a93b"/>` : `<path d="M${cx - r * 0.14} ${cy + r * 0.2} q${r * 0.07} ${r * 0.12} ${r * 0.14} 0 q${r * 0.07} ${r * 0.12} ${r * 0.14} 0" stroke="#2b2233" stroke-width="${Math.max(2, r * 0.04)}" fill="none" stroke-linecap="round"/>`}`;
  return `${ears(shape, p, cx, cy, r)}${head}${belly}${patches}${face}`;
}

function prizeBase(kind: PrizeKind, p: Palette, shape: CreatureShape): string {
  switch (kind) {
    case 'big_plush':
      return creature(shape, p, 200, 215, 118);
    case 'plush':
      return creature(shape, p, 200, 220, 92);
    case 'mascot':
      return `<circle cx="200" cy="92" r="26" fill="none" stroke="#b9b0c4" stroke-width="9"/><rect x="194" y="112" width="12" height="34" rx="5" fill="#b9b0c4"/>${creature(shape, p, 200, 225, 70)}`;
    case 'cushion':
      return `<rect x="70" y="95" width="260" height="230" rx="70" fill="${p.accent}" stroke="#0002" stroke-width="4"/>${creature(shape, p, 200, 215, 72)}`;
    case 'acrylic':
      return `<rect x="105" y="70" width="190" height="250" rx="18" fill="#ffffffaa" stroke="#9fd9f5" stroke-width="6"/><ellipse cx="200" cy="335" rx="110" ry="18" fill="#cde9f7" stroke="#9fd9f5" stroke-width="4"/>${creature(shape, p, 200, 200, 70)}`;
    case 'mug':
      return `<path d="M300 170 q60 10 45 70 q-10 45 -50 40" fill="none" stroke="#f4f1f7" stroke-width="22"/><rect x="90" y="120" width="220" height="215" rx="26" fill="#f4f1f7" stroke="#0002" stroke-width="4"/><rect x="90" y="120" width="220" height="26" rx="12" fill="${p.accent}"/>${creature(shape, p, 200, 235, 58)}`;
    case 'figure':
      return `<ellipse cx="200" cy="335" rx="95" ry="22" fill="${p.accent}" stroke="#0002" stroke-width="4"/><rect x="160" y="230" width="80" height="100" rx="30" fill="${p.body}" stroke="#0002" stroke-width="3"/>${creature(shape, p, 200, 175, 75)}`;
    case 'sweets':
      return `<rect x="70" y="130" width="260" height="200" rx="24" fill="${p.accent}" stroke="#0002" stroke-width="4"/><rect x="70" y="130" width="260" height="44" rx="20" fill="#ffffff88"/>
<circle cx="120" cy="300" r="14" fill="#c98a4b"/><circle cx="280" cy="300" r="14" fill="#c98a4b"/><circle cx="150" cy="312" r="10" fill="#e7b77a"/><circle cx="250" cy="312" r="10" fill="#e7b77a"/>${creature(shape, p, 200, 240, 58)}`;
    case 'blanket':
      return `<path d="M60 120 h280 v200 q-140 40 -280 0 Z" fill="${p.accent}" stroke="#0002" stroke-width="4"/><path d="M60 160 h280 M60 200 h280 M60 240 h280" stroke="#ffffff66" stroke-width="8"/>${creature(shape, p, 200, 215, 64)}`;
  }
}

/** A square prize picture (400×400). `seed` varies the sprinkled background pattern. */
export function prizeSvg(opts: {
  shape: CreatureShape;
  palette: Palette;
  kind: PrizeKind;
  seed: number;
  label?: string;
}): string {
  const random = rng(opts.seed);
  const dots = Array.from({ length: 18 }, () => {
    const x = Math.round(random() * 400);
    const y = Math.round(random() * 400);
    const r = 4 + Math.round(random() * 10);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" opacity="0.55"/>`;
  }).join('');
  const label = opts.label
    ? `<rect x="0" y="360" width="400" height="40" fill="#00000033"/><text x="200" y="388" text-anchor="middle" font-size="20" font-weight="700" fill="#fff" font-family="sans-serif">${esc(opts.label)}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">
<rect width="400" height="400" fill="${opts.palette.background}"/>${dots}
${prizeBase(opts.kind, opts.palette, opts.shape)}${label}
</svg>`;
}

/** A wide banner (1280×400) with a headline, a sub line and a row of characters. */
export function bannerSvg(opts: {
  title: string;
  subtitle: string;
  colors: readonly [string, string];
  characters: readonly { shape: CreatureShape; palette: Palette }[];
}): string {
  const faces = opts.characters
    .slice(0, 4)
    .map((c, i) => creature(c.shape, c.palette, 860 + i * 110, 250 + (i % 2) * 40, 50))
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1280 400" width="1280" height="400">
<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="${opts.colors[0]}"/><stop offset="1" stop-color="${opts.colors[1]}"/></linearGradient></defs>
<rect width="1280" height="400" fill="url(#g)"/>
<circle cx="1180" cy="60" r="140" fill="#ffffff22"/><circle cx="80" cy="380" r="120" fill="#ffffff22"/>
<text x="70" y="190" font-size="76" font-weight="800" fill="#fff" font-family="sans-serif">${esc(opts.title)}</text>
<text x="74" y="262" font-size="36" font-weight="700" fill="#fff" font-family="sans-serif" opacity="0.95">${esc(opts.subtitle)}</text>
${faces}
</svg>`;
}
