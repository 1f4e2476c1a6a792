import { describe, expect, it } from 'vitest';
import { append, type Html, html, render } from './html.ts';

describe('html, the pages’ escaping template (issue 41)', () => {
  it('escapes every interpolated text: a <script> and quotes come out as text', () => {
    const hostile = '<script>alert("x")</script>\'';
    const markup = html`<td title="${hostile}">${hostile}</td>`;
    expect(String(markup)).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;</td>',
    );
    const cell = document.createElement('tr');
    render(cell, markup);
    expect(cell.querySelector('script')).toBeNull();
    expect(cell.textContent).toBe(hostile);
    expect(cell.querySelector('td')?.getAttribute('title')).toBe(hostile);
  });

  it('writes nested templates and lists of them as markup, numbers as text, nothing for null, undefined and false', () => {
    const rows = ['a&b', 'c'].map((text) => html`<li>${text}</li>`);
    expect(String(html`<ul>${rows}${null}${undefined}${false}</ul><p>${3}</p>`)).toBe('<ul><li>a&amp;b</li><li>c</li></ul><p>3</p>');
  });

  it('never takes a plain string as markup: one that looks like markup, or a forged one, is escaped', () => {
    const forged = { toString: () => '<b>raw</b>' } as unknown as Html;
    expect(String(html`${'<b>raw</b>'}`)).toBe('&lt;b&gt;raw&lt;/b&gt;');
    expect(String(html`${forged}`)).toBe('&lt;b&gt;raw&lt;/b&gt;');
    expect(String(html`${[html`<i>${'<b>'}</i>`, '<b>']}`)).toBe('<i>&lt;b&gt;</i>&lt;b&gt;');
  });

  it('refuses an unquoted attribute value, which escaping cannot keep from adding an attribute', () => {
    const value = 'x onmouseover=alert(1)';
    expect(() => html`<a href=${value}>lien</a>`).toThrow(/unquoted attribute/);
  });

  it('adds markup after what an element holds', () => {
    const list = document.createElement('select');
    render(list, html`<option value="">Toutes</option>`);
    append(list, html`<option value="${'1'}">${'<Santé>'}</option>`);
    expect([...list.options].map((option) => option.text)).toEqual(['Toutes', '<Santé>']);
  });
});
