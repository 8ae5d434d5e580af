// HTML for the customer pages, escaped by construction: `html` escapes every interpolated value
// unless it is already Html (another fragment, or raw() for markup we produced ourselves).
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

type Part = Html | string | number | boolean | null | undefined | Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false || part === true) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup produced by us (never customer or salon input). */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** JSON for a `<script type="application/json">` element: `<` escaped so no text closes the element. */
export function jsonScript(data: unknown): Html {
  return new Html(JSON.stringify(data).replace(/</g, '\\u003c'));
}
