// Vite plugin for the element's build: the minifier leaves the text of lit's tagged templates as written, so the
// bundle carried every newline and indent of its CSS and HTML (about 2.5 KB raw). This collapses that whitespace in
// `css`, `html` and `svg` templates of widget/ sources, where it changes nothing the browser renders or parses:
//
// - any run of whitespace becomes one space (HTML and SVG text render a run as one space; none of our templates holds
//   a <pre> or <textarea>, which would keep it);
// - in CSS, comments go, and spaces beside `{ } ; ,` and after `:` in declarations go too. A space before `:` is kept,
//   because in a selector (`a :hover`) it is a descendant combinator.
//
// Templates are found with the TypeScript parser, so an expression inside `${…}` (even a nested template) is never
// touched as text.
import type { Plugin } from 'vite';
import ts from 'typescript';

const TAGS = new Set(['css', 'html', 'svg']);

const collapse = (text: string) => text.replace(/\s+/g, ' ');

const minifyCss = (text: string) =>
  collapse(text.replace(/\/\*[\s\S]*?\*\//g, ''))
    .replace(/ ?([{};,]) ?/g, '$1')
    .replace(/: /g, ':');

/** Edits (start, end, text) of the literal parts of every css/html/svg tagged template in `source`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

function templateEdits(file: string, source: string): Edit[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: Edit[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && TAGS.has(node.tag.text)) {
      const minify = node.tag.text === 'css' ? minifyCss : collapse;
      const template = node.template;
      const parts: ts.Node[] = ts.isNoSubstitutionTemplateLiteral(template)
        ? [template]
        : [template.head, ...template.templateSpans.map((span) => span.literal)];
      for (const part of parts) {
        // The raw text sits between the opening (` or }) and the closing (` or ${) delimiters.
        const start = part.getStart(tree) + 1;
        const end = part.getEnd() - (part.kind === ts.SyntaxKind.TemplateHead || part.kind === ts.SyntaxKind.TemplateMiddle ? 2 : 1);
        const raw = source.slice(start, end);
        const text = minify(raw);
        if (text !== raw) edits.push({ start, end, text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return edits;
}

/** Rewrites `source` with its templates' whitespace collapsed. */
export function minifyTemplates(file: string, source: string): string {
  let out = source;
  for (const { start, end, text } of templateEdits(file, source).sort((a, b) => b.start - a.start)) {
    out = out.slice(0, start) + text + out.slice(end);
  }
  return out;
}

/** The plugin: widget/ TypeScript sources only; lit's own code has no such templates. */
export function minifyTemplatesPlugin(): Plugin {
  return {
    name: 'pix-minify-templates',
    enforce: 'pre',
    transform(code: string, id: string) {
      if (!/\/widget\/.*\.ts$/.test(id) || !/(css|html|svg)`/.test(code)) return null;
      return { code: minifyTemplates(id, code), map: null };
    },
  };
}
