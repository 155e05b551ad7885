import { describe, expect, it } from 'vitest';
import { minifyTemplates } from './minify-templates';

describe("the element build's template minifier", () => {
  it('collapses CSS whitespace but keeps descendant combinators and quoted content', () => {
    const source = "const s = css`\n  :host {\n    color: red; /* note */\n  }\n  .a :hover,\n  .b > .c {\n    content: '…';\n  }\n`;";
    expect(minifyTemplates('x.ts', source)).toBe("const s = css` :host{color:red;}.a :hover,.b > .c{content:'…';}`;");
  });

  it('collapses runs of whitespace in html and svg to one space, and leaves expressions alone', () => {
    const source = [
      'const t = html`<div class="a\n    b">\n  ${cond ? html`<p>\n   x</p>` : `keep\n   this`}\n</div>`;',
      'const i = svg`<path d="M0 0\n   L1 1"/>`;',
      'const plain = `untagged\n    text`;',
    ].join('\n');
    expect(minifyTemplates('x.ts', source)).toBe(
      [
        'const t = html`<div class="a b"> ${cond ? html`<p> x</p>` : `keep\n   this`} </div>`;',
        'const i = svg`<path d="M0 0 L1 1"/>`;',
        'const plain = `untagged\n    text`;',
      ].join('\n'),
    );
  });
});
