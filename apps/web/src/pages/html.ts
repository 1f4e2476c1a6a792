/**
 * The pages' markup (issue 41): `html` is a tagged template whose every interpolated value is escaped, so that an
 * unescaped value cannot be written. Markup passes unescaped only as an `Html`, which nothing but `html` itself
 * makes: a nested template, or an array of them. `render` and `append` are the pages' only ways into the DOM's
 * HTML parser (`innerHTML` nowhere else in apps/web/src, scripts/architecture). Why our own rather than a library: docs/decisions.md, "The public pages: a room of their own".
 *
 *   html`<td>${row.libref}</td>`                       // "<b>" arrives as "&lt;b&gt;"
 *   html`<tr>${rows.map((row) => html`<td>${row}</td>`)}</tr>`
 */

/** Markup made by `html`: a class whose constructor no other module reaches, so a plain string is never one. */
class Html {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

export type { Html };

/** What a template may hold: text and numbers (escaped), markup (as is), lists of either; nothing for null, undefined, false. */
export type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

/** `escaped('<b>')` is `&lt;b&gt;`: safe in text and in a quoted attribute. */
function escaped(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#39;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function write(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(write).join('');
  if (value === null || value === undefined || value === false) return '';
  return escaped(String(value));
}

/** Templates checked once: an attribute's value must be quoted, since escaping does not stop `a=${x}` from adding another attribute. */
const checked = new WeakSet<TemplateStringsArray>();

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  if (!checked.has(strings)) {
    if (strings.slice(0, -1).some((part) => /=\s*$/.test(part)))
      throw new Error(`html: an unquoted attribute value in ${strings.join('…')}`);
    checked.add(strings);
  }
  let text = strings[0];
  for (let index = 0; index < values.length; index++) text += write(values[index]) + strings[index + 1];
  return new Html(text);
}

/** Replaces what `element` holds with `markup`. */
export function render(element: { innerHTML: string }, markup: Html): void {
  element.innerHTML = markup.toString();
}

/** Adds `markup` at the end of what `element` holds. */
export function append(element: { insertAdjacentHTML(position: 'beforeend', text: string): void }, markup: Html): void {
  element.insertAdjacentHTML('beforeend', markup.toString());
}
