import type { SaxesTag } from 'saxes';
import { uploadedXmlParser } from '../foundation/uploads/xml.ts';
import { type CaseSink, lineFailed, rowFailed } from './imported-case.ts';

type OpenCase = {
  line: number;
  /** The texts of the elements below `<case>` that a case is made of, by their path (`custom/preconds`). */
  texts: Map<string, string>;
  steps: Array<{ action: string; expectedResult: string | null }>;
  step: { content: string; expected: string } | null;
};

/** TestRail's own case fields that have a system field here; an unknown value is a warning. */
const FIELD_ELEMENTS: Record<string, string> = { priority: 'priority', type: 'type' };

/** The elements below `<case>` whose text a case is made of, by their path from the case. */
const CASE_TEXTS = new Set(['title', 'custom/preconds', 'custom/steps', 'custom/expected', 'references', ...Object.keys(FIELD_ELEMENTS)]);

/**
 * Reads a TestRail XML export (`<suite><sections><section><name/><cases><case>…`) as its bytes
 * stream in, handing each case to `sink`. Nested sections are the suite path (the TestRail suite
 * itself is not one); per case: `title`; `custom/preconds` the description; `custom/steps_separated`
 * (`step` with `content` and `expected`) or the text template's `custom/steps` and
 * `custom/expected` (one step) the steps; `references` the tags; `priority` and `type` the system
 * fields of those keys. Everything else is ignored. The parser's bounds (src/foundation/uploads/xml.ts) hold,
 * and each element costs the same whatever its depth: the reader keeps a stack of names.
 */
export async function readTestRail(chunks: AsyncIterable<Uint8Array>, sink: CaseSink): Promise<void> {
  /** The names of the open elements, from the root. */
  const path: string[] = [];
  const sections: string[] = [];
  let text = '';
  let open: OpenCase | null = null;
  /** Where `<case>` stands in `path` while a case is open. */
  let caseDepth = 0;

  const { parser, fail, read } = uploadedXmlParser(lineFailed, 'the file is not valid UTF-8', {
    opentag(tag: SaxesTag) {
      if (path.length === 0 && tag.name !== 'suite' && tag.name !== 'sections')
        fail(`not a TestRail export: its root element is <${tag.name}>`);
      path.push(tag.name);
      text = '';
      if (tag.name === 'section' && !open) sections.push('');
      else if (tag.name === 'case' && !open) {
        open = { line: parser.line, texts: new Map(), steps: [], step: null };
        caseDepth = path.length;
      } else if (tag.name === 'step' && open) open.step = { content: '', expected: '' };
    },
    text(chunk: string) {
      text += chunk;
    },
    closetag(tag: SaxesTag) {
      const parent = path.at(-2);
      const below = path.length - caseDepth;
      const key = open && below >= 1 && below <= 2 ? path.slice(caseDepth).join('/') : null;
      path.pop();
      const value = text.trim();
      text = '';
      if (!open) {
        if (tag.name === 'name' && parent === 'section') sections[sections.length - 1] = value;
        else if (tag.name === 'section') sections.pop();
        return;
      }
      if (tag.name === 'case' && below === 0) {
        const closed: OpenCase = open;
        open = null;
        emit(closed, sections, sink);
      } else if (tag.name === 'step' && open.step) {
        if (open.step.content) open.steps.push({ action: open.step.content, expectedResult: open.step.expected || null });
        else sink.warn(open.line, `a step without content is left out (step ${open.steps.length + 1})`);
        open.step = null;
      } else if (open.step && parent === 'step' && (tag.name === 'content' || tag.name === 'expected')) {
        open.step[tag.name] = value;
      } else if (key && CASE_TEXTS.has(key)) {
        open.texts.set(key, value);
      }
    },
  });

  await read(chunks);
  if (path.length !== 0) fail('the document ends too early');
}

function emit(open: OpenCase, sections: string[], sink: CaseSink): void {
  const texts = open.texts;
  const title = texts.get('title') ?? '';
  if (title === '') throw rowFailed(open.line, 'the case has no title');
  const textSteps = texts.get('custom/steps');
  const steps =
    open.steps.length > 0 || !textSteps ? open.steps : [{ action: textSteps, expectedResult: texts.get('custom/expected') || null }];
  sink.add({
    row: open.line,
    displayId: null,
    title,
    suitePath: sections.filter(Boolean),
    description: texts.get('custom/preconds') || null,
    steps,
    tags: (texts.get('references') ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
    fields: Object.entries(FIELD_ELEMENTS).flatMap(([element, column]) => {
      const value = texts.get(element);
      return value ? [{ column, text: value, lenient: true }] : [];
    }),
  });
}
