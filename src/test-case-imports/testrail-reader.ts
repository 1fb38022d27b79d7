import type { SaxesTag } from 'saxes';
import { uploadedXmlParser } from '../xml.ts';
import { CaseSink, lineFailed, rowFailed } from './imported-case.ts';

type OpenCase = {
  line: number;
  texts: Map<string, string>;
  steps: Array<{ action: string; expectedResult: string | null }>;
  step: { content: string; expected: string } | null;
};

/** TestRail's own case fields that have a system field here; an unknown value is a warning. */
const FIELD_ELEMENTS: Record<string, string> = { priority: 'priority', type: 'type' };

/**
 * Reads a TestRail XML export (`<suite><sections><section><name/><cases><case>…`) as its bytes
 * stream in, handing each case to `sink`. Nested sections are the suite path (the TestRail suite
 * itself is not one); per case: `title`; `custom/preconds` the description; `custom/steps_separated`
 * (`step` with `content` and `expected`) or the text template's `custom/steps` and
 * `custom/expected` (one step) the steps; `references` the tags; `priority` and `type` the system
 * fields of those keys. Everything else is ignored. A DOCTYPE is refused, so no entity is expanded.
 */
export async function readTestRail(chunks: AsyncIterable<Uint8Array>, sink: CaseSink): Promise<void> {
  const { parser, fail, read } = uploadedXmlParser(lineFailed, 'the file is not valid UTF-8');
  const path: string[] = [];
  const sections: string[] = [];
  let text = '';
  let open: OpenCase | null = null;

  parser.on('opentag', (tag: SaxesTag) => {
    if (path.length === 0 && tag.name !== 'suite' && tag.name !== 'sections') fail(`not a TestRail export: its root element is <${tag.name}>`);
    path.push(tag.name);
    text = '';
    if (tag.name === 'section' && !open) sections.push('');
    else if (tag.name === 'case' && !open) open = { line: parser.line, texts: new Map(), steps: [], step: null };
    else if (tag.name === 'step' && open) open.step = { content: '', expected: '' };
  });
  const onText = (chunk: string) => {
    text += chunk;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    const parent = path.at(-2);
    path.pop();
    const value = text.trim();
    text = '';
    if (!open) {
      if (tag.name === 'name' && parent === 'section') sections[sections.length - 1] = value;
      else if (tag.name === 'section') sections.pop();
      return;
    }
    const within = path.slice(path.lastIndexOf('case') + 1);
    if (tag.name === 'case') {
      const closed: OpenCase = open;
      open = null;
      emit(closed, sections, sink);
    } else if (tag.name === 'step' && open.step) {
      if (open.step.content) open.steps.push({ action: open.step.content, expectedResult: open.step.expected || null });
      else sink.warn(open.line, `a step without content is left out (step ${open.steps.length + 1})`);
      open.step = null;
    } else if (open.step && parent === 'step' && (tag.name === 'content' || tag.name === 'expected')) {
      open.step[tag.name] = value;
    } else if (!within.includes('steps_separated')) {
      open.texts.set([...within, tag.name].join('/'), value);
    }
  });

  await read(chunks);
  if (path.length !== 0) fail('the document ends too early');
}

function emit(open: OpenCase, sections: string[], sink: CaseSink): void {
  const texts = open.texts;
  const title = texts.get('title') ?? '';
  if (title === '') throw rowFailed(open.line, 'the case has no title');
  const textSteps = texts.get('custom/steps');
  const steps = open.steps.length > 0 || !textSteps ? open.steps : [{ action: textSteps, expectedResult: texts.get('custom/expected') || null }];
  sink.add({
    row: open.line,
    displayId: null,
    title,
    suitePath: sections.filter(Boolean),
    description: texts.get('custom/preconds') || null,
    steps,
    tags: (texts.get('references') ?? '').split(',').map((tag) => tag.trim()).filter(Boolean),
    fields: Object.entries(FIELD_ELEMENTS).flatMap(([element, column]) => {
      const value = texts.get(element);
      return value ? [{ column, text: value, lenient: true }] : [];
    }),
  });
}
