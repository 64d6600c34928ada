// DOM helpers. Everything the console shows is built from elements and text nodes: no
// innerHTML, no HTML strings, so a prompt, schema name or manual holding "<script>" is shown
// as those characters and never parsed.

// h('button', {class: 'x', onclick: f, 'aria-label': 'y'}, 'text', child, [more]) -> Element.
// Attributes starting with "on" become listeners; `dataset` is an object of data-* values;
// boolean true sets an empty attribute, false/null/undefined leaves it out. Children are Nodes,
// strings (text nodes), numbers, arrays of those, or null/undefined/false (skipped).
export function h(tag, attrs, ...children) {
  const el = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (k === 'dataset') {
      for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv);
    } else if (k === 'value' && 'value' in el) {
      el.value = v;
    } else if (k === 'checked' || k === 'selected') {
      el[k] = Boolean(v);
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Replaces the children of `el`.
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// A labelled form control: <div class="field"><label for=id>text</label>control</div>.
let nextId = 1;
export function field(label, control, hint) {
  if (!control.id) control.id = `f${nextId++}`;
  const parts = [h('label', { for: control.id }, label), control];
  if (hint) {
    const hid = `${control.id}-hint`;
    control.setAttribute('aria-describedby', hid);
    parts.push(h('div', { class: 'hint', id: hid }, hint));
  }
  return h('div', { class: 'field' }, parts);
}

export function select(options, value, attrs = {}) {
  return h(
    'select',
    attrs,
    options.map((o) => {
      const [v, text] = Array.isArray(o) ? o : [o, o];
      return h('option', { value: v, selected: v === value }, text);
    }),
  );
}

// A status line that screen readers announce.
export function notice(kind, text) {
  return h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

export function codeBlock(text, label) {
  return h('pre', { class: 'code', tabindex: '0', 'aria-label': label || 'code' }, text);
}

// Copies `text` and says so on the button.
export function copyButton(label, text) {
  const b = h('button', { type: 'button', class: 'secondary' }, label);
  b.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      b.textContent = 'Copied';
    } catch {
      b.textContent = 'Copy failed: select the text';
    }
    setTimeout(() => (b.textContent = label), 1500);
  });
  return b;
}

export function fmtInt(n) {
  return Number(n || 0).toLocaleString('en-US');
}

export function fmtSeconds(s) {
  if (s === undefined || s === null || Number.isNaN(s)) return '–';
  return s < 1 ? `${Math.round(s * 1000)} ms` : `${s.toFixed(2)} s`;
}
