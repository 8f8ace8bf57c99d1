// Small DOM helpers shared by the pages: elements, tables, cards, numbers and SVG charts.
// Elements are built with the DOM API, so text from the log stays text; the server's own SVG charts
// are shown as images.

const SVG = 'http://www.w3.org/2000/svg';

/** An element: `h('td', {class: 'num'}, '12')`; attributes starting with `on` are listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  return fill(element, children);
}

/**
 * Replaces `element`'s children with `children` (nested arrays flattened; null, undefined and false
 * left out). A page that refreshes itself keeps a keyboard user's place: the control that had focus
 * inside `element` gets it back in the new children, found by its id or its accessible label.
 */
export function fill(element, ...children) {
  const focused = document.activeElement;
  const place = focused && focused !== element && element.contains(focused) ? focusSelector(focused) : null;
  element.replaceChildren();
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  const again = place && element.querySelector(place);
  if (again) again.focus({ preventScroll: true });
  return element;
}

/** A selector that finds `node` again in content built anew: its id, else its tag and label (null: neither). */
function focusSelector(node) {
  if (node.id) return `#${CSS.escape(node.id)}`;
  const label = node.getAttribute('aria-label');
  return label ? `${node.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]` : null;
}

/** A number with thousands separators, independent of the browser's locale. */
export function count(value) {
  if (value === undefined || value === null) return '—';
  const [whole, fraction] = String(value).split('.');
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction ? '.' + fraction : '');
}

export function fixed(value, digits = 1) {
  return value === undefined || value === null ? '—' : count(Number(value).toFixed(digits));
}

export function bytes(value) {
  if (value === undefined || value === null) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let amount = value, unit = 0;
  while (amount >= 1000 && unit < units.length - 1) { amount /= 1000; unit += 1; }
  return `${unit === 0 ? amount : amount.toFixed(1)} ${units[unit]}`;
}

export function seconds(value) {
  if (!value) return '0 s';
  if (value < 60) return `${value.toFixed(1)} s`;
  const minutes = Math.floor(value / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(value % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A titled table: `columns` are [heading, numeric?]; rows are arrays of cells (text or nodes). */
export function table(caption, columns, rows, attributes = {}) {
  return h('table', attributes,
    h('caption', { class: 'muted' }, caption),
    h('thead', {}, h('tr', {}, columns.map(([name, numeric]) => h('th', { scope: 'col', class: numeric ? 'num' : undefined }, name)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, row.map((cell, index) =>
      h('td', { class: columns[index] && columns[index][1] ? 'num' : undefined }, cell))))));
}

/** A card of labelled values: [[label, value, field]] (the field names the value for tests). */
export function cards(label, entries) {
  return h('dl', { class: 'cards', 'aria-label': label },
    entries.map(([name, value, field]) => h('div', { class: 'card' }, h('dt', {}, name), h('dd', { 'data-field': field }, value))));
}

/** An SVG element, as `h` makes HTML ones. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children.flat(Infinity)) if (child) element.append(child);
  return element;
}

/** A line chart of `values` (oldest first) with a title for screen readers. */
export function lineChart(title, values, unit) {
  const width = 720, height = 140, pad = 28;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const points = values.map((value, index) => `${(pad + index * step).toFixed(1)},${(height - pad - (value / max) * (height - 2 * pad)).toFixed(1)}`);
  const last = values.length ? values[values.length - 1] : 0;
  return svg('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${title}: latest ${fixed(last)} ${unit}, highest ${fixed(max)} ${unit}` },
    svg('title', {}, document.createTextNode(title)),
    svg('line', { class: 'axis', x1: pad, y1: height - pad, x2: width - pad, y2: height - pad }),
    svg('text', { x: pad, y: 14 }, document.createTextNode(`${title} (max ${fixed(max)} ${unit})`)),
    values.length > 1 ? svg('polyline', { class: 'line', points: points.join(' ') }) : null);
}

/** A horizontal bar chart of [label, value] pairs. */
export function barChart(title, pairs) {
  const width = 720, row = 18, left = 190;
  const max = Math.max(1, ...pairs.map(([, value]) => value));
  const height = row * pairs.length + 24;
  return svg('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title },
    svg('title', {}, document.createTextNode(title)),
    pairs.map(([label, value], index) => [
      svg('text', { x: 4, y: 20 + index * row + 10 }, document.createTextNode(label)),
      svg('rect', { class: 'bar', x: left, y: 20 + index * row, height: row - 4, width: Math.max(1, ((width - left - 70) * value) / max) }),
      svg('text', { x: left + Math.max(1, ((width - left - 70) * value) / max) + 4, y: 20 + index * row + 10 }, document.createTextNode(count(value))),
    ]));
}

/**
 * A chart the server drew, shown as an image: an SVG in an <img> runs nothing and links nowhere,
 * whatever it holds.
 */
export function svgDocument(text, label) {
  return h('img', { class: 'chart', alt: label, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}` });
}
