// The evidence view's text model: the input split into segments at every quote boundary, each
// segment knowing which fields' quotes cover it. Pure functions (no DOM).

// Offsets in the result are code points (cpStart/cpEnd); JavaScript strings index UTF-16
// units. unitIndex[cp] is the UTF-16 index of code point cp (unitIndex[n] = length).
export function codePointIndex(text) {
  const index = [];
  let unit = 0;
  for (const ch of text) {
    index.push(unit);
    unit += ch.length;
  }
  index.push(unit);
  return index;
}

// A field's colour class is shared by the array elements of one field: /items/0/name and
// /items/3/name are both /items/*/name.
export function fieldOf(pointer) {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

// The value at a JSON pointer, or undefined.
export function resolvePointer(root, pointer) {
  if (pointer === '') return root;
  let cur = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(token in cur)) return undefined;
    cur = cur[token];
  }
  return cur;
}

// The rows of the field list: every grounded pointer (with its quote's UTF-16 range) and every
// ungrounded one, in document order of the data where possible.
export function evidenceRows(prompt, result) {
  const ev = result.evidence || {};
  const ungrounded = result.ungrounded || [];
  const index = codePointIndex(prompt);
  const rows = [];
  const clamp = (cp) => index[Math.max(0, Math.min(cp, index.length - 1))];
  for (const [pointer, e] of Object.entries(ev)) {
    rows.push({
      pointer,
      field: fieldOf(pointer),
      grounded: true,
      quote: e.quote,
      match: e.match,
      kind: e.kind,
      cpStart: e.cpStart,
      cpEnd: e.cpEnd,
      start: clamp(e.cpStart),
      end: clamp(e.cpEnd),
      value: resolvePointer(result.data, pointer),
    });
  }
  for (const pointer of ungrounded) {
    rows.push({ pointer, field: fieldOf(pointer), grounded: false, value: resolvePointer(result.data, pointer) });
  }
  rows.sort((a, b) => (a.grounded === b.grounded ? (a.start ?? 0) - (b.start ?? 0) : a.grounded ? -1 : 1));
  return rows;
}

// [{start, end, text, pointers: [...]}] covering the whole prompt; pointers is empty for text
// no quote covers. Overlapping quotes split into segments covered by both.
export function segments(prompt, rows) {
  const cuts = new Set([0, prompt.length]);
  const spans = rows.filter((r) => r.grounded && r.end > r.start);
  for (const r of spans) {
    cuts.add(r.start);
    cuts.add(r.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [start, end] = [points[i], points[i + 1]];
    const pointers = spans.filter((r) => r.start <= start && r.end >= end).map((r) => r.pointer);
    out.push({ start, end, text: prompt.slice(start, end), pointers });
  }
  return out;
}

// Batch files: results (JSONL of `structure batch` output) joined to their inputs (the JSONL
// the batch read) by id, or by line number for records keyed {"line": N}.
export function joinBatch(resultsText, inputsText) {
  const inputs = new Map();
  const problems = [];
  if (inputsText) {
    inputsText.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        const v = JSON.parse(line);
        inputs.set(v.id !== undefined ? `id:${JSON.stringify(v.id)}` : `line:${i + 1}`, v);
        inputs.set(`line:${i + 1}`, v);
      } catch (e) {
        problems.push(`inputs line ${i + 1}: ${e.message}`);
      }
    });
  }
  const records = [];
  resultsText.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let r;
    try {
      r = JSON.parse(line);
    } catch (e) {
      problems.push(`results line ${i + 1}: ${e.message}`);
      return;
    }
    const key = r.id !== undefined ? `id:${JSON.stringify(r.id)}` : `line:${r.line}`;
    const input = inputs.get(key);
    const label = r.id !== undefined ? String(r.id) : `line ${r.line ?? i + 1}`;
    records.push({ label, result: r, prompt: input && typeof input.prompt === 'string' ? input.prompt : r.prompt });
  });
  return { records, problems };
}
