// Text colours that stay readable whatever colours a salon picks (WCAG 2.2 AA: at least 4.5:1 for
// normal text). Pure: used by the server-rendered pages to set the page's colour variables.

/** `#RRGGBB` (or `#RGB`) -> [r, g, b] 0..255; undefined for anything else. */
export function parseHex(value: unknown): [number, number, number] | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) return undefined;
  const hex = m[1].length === 3 ? m[1].replace(/./g, (c) => c + c) : m[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

export function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG 2.x). */
export function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Contrast ratio 1..21 of two colours. */
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const BLACK: [number, number, number] = [0, 0, 0];
const WHITE: [number, number, number] = [255, 255, 255];
/** The pages' light panel colour (--soft in web/src/styles.css): coloured text must read on it as on white. */
const SOFT: [number, number, number] = [244, 242, 246];

/** Black or white text on `background`, whichever reads better (one of them always reaches 4.5:1). */
export function textOn(background: [number, number, number]): [number, number, number] {
  return contrastRatio(background, BLACK) >= contrastRatio(background, WHITE) ? BLACK : WHITE;
}

/**
 * `colour` moved toward black or white just far enough to reach `minimum` contrast on `background`
 * (the salon's hue kept as far as possible): for brand-coloured text and borders on the page.
 */
export function readableColour(colour: [number, number, number], background: [number, number, number], minimum = 4.5): [number, number, number] {
  if (contrastRatio(colour, background) >= minimum) return colour;
  const target = textOn(background);
  let lo = 0;
  let hi = 1;
  // binary search on the mix: 20 steps are finer than one colour step
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2;
    if (contrastRatio(mix(colour, target, mid), background) >= minimum) hi = mid;
    else lo = mid;
  }
  return mix(colour, target, hi);
}

/** a moved toward b by t, in whole colour steps (the contrast is checked on what is shown). */
function mix(a: [number, number, number], b: [number, number, number], t: number): [number, number, number] {
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t)) as [number, number, number];
}

export interface PageColours {
  /** the salon's primary colour (backgrounds of the header and primary buttons) */
  brand: string;
  /** text on `brand` */
  onBrand: string;
  /** the brand hue as text, links and focus rings on the white page and its light panels */
  brandText: string;
  /** the secondary colour as accents (selected items), readable on white */
  accentText: string;
}

export const DEFAULT_PRIMARY = '#5b2a86';

/** The page's colours from the salon's branding (`primaryColor`, `secondaryColor`), readable whatever they are. */
export function pageColours(branding: { primaryColor?: unknown; secondaryColor?: unknown }): PageColours {
  const primary = parseHex(branding.primaryColor) ?? parseHex(DEFAULT_PRIMARY)!;
  const secondary = parseHex(branding.secondaryColor) ?? primary;
  return {
    brand: toHex(primary),
    onBrand: toHex(textOn(primary)),
    // checked on the light panel, which is darker than white: what reads there reads on white too
    brandText: toHex(readableColour(primary, SOFT)),
    accentText: toHex(readableColour(secondary, SOFT)),
  };
}
