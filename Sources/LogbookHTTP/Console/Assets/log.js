// Log: browse by stream prefix, event type, subject (user) and time (found by bisecting the
// log's positions on recordedAt); an event's envelope and payload (tombstones shown as such);
// and a live tail that pauses and resumes where it stopped.
import { h, count, table, fill } from './view.js';

const pageSize = 50;

function summary(event) {
  return event.erased ? h('span', { class: 'warn' }, 'tombstone (erased)') : event.type;
}

export async function render({ api, main, signal, status, expired }) {
  const detail = h('section', { id: 'event-detail', 'aria-label': 'The chosen event', tabindex: '-1' });
  const results = h('div', { id: 'log-results' });
  const overview = await api.get('/admin/overview');
  const types = overview.eventsByType.map((entry) => entry.type).filter((type) => !type.startsWith('('));

  function show(event) {
    fill(detail, 
      h('h3', {}, `Event ${count(event.position)}: `, summary(event)),
      event.erased ? h('p', { class: 'warn' }, 'This event\'s payload was erased with its user; only the envelope remains.') : null,
      h('pre', { class: 'mono', 'data-field': 'event-json' }, JSON.stringify(event, null, 2)));
    detail.focus();
  }

  function rows(events) {
    return events.map((event) => [
      h('span', { 'data-position': event.position }, count(event.position)), event.recordedAt, h('span', { class: 'mono' }, event.stream),
      summary(event), event.subject || '—',
      h('button', { type: 'button', onclick: () => show(event), 'aria-label': `Show event ${event.position}` }, 'Show'),
    ]);
  }

  /**
   * The first position recorded at or after `time`, by bisection (the log is in commit order);
   * one past the head when every event is older.
   */
  async function positionAt(time) {
    const target = Date.parse(time);
    if (Number.isNaN(target)) throw new Error(`"${time}" is not a time (e.g. 2026-10-28T08:00:00Z)`);
    let low = 1, high = overview.head + 1;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const page = await api.get(`/log?from=${middle}&limit=1`);
      const event = page.events[0];
      if (!event || Date.parse(event.recordedAt) >= target) high = middle; else low = middle + 1;
    }
    return low;
  }

  async function browse(form) {
    const values = Object.fromEntries(new FormData(form).entries());
    let from = values.from ? Number(values.from) : 1;
    try {
      if (values.time) from = await positionAt(values.time.trim());
      let events;
      if (values.subject) {
        const page = await api.get(`/users/${encodeURIComponent(values.subject.trim())}/events?from=${from}&limit=${pageSize}`);
        events = page.events.filter((event) => (!values.type || event.type === values.type) && (!values.prefix || event.stream.startsWith(values.prefix)));
      } else {
        const query = new URLSearchParams({ from: String(from), limit: String(pageSize) });
        if (values.type) query.set('types', values.type);
        if (values.prefix) query.set('prefix', values.prefix.trim());
        events = (await api.get(`/log?${query}`)).events;
      }
      fill(results, table(`${events.length} events from position ${count(from)}${values.type ? ` of type ${values.type}` : ''}${values.prefix ? ` in streams ${values.prefix}…` : ''}${values.subject ? ` of ${values.subject}` : ''}`,
        [['Position', true], ['Recorded'], ['Stream'], ['Type'], ['Subject'], ['']], rows(events), { id: 'log-table' }));
      status(`${events.length} events shown`);
    } catch (error) {
      fill(results, h('p', { class: 'error', role: 'alert' }, error.detail || error.message));
    }
  }

  const form = h('form', { class: 'inline', id: 'log-filter' },
    h('div', {}, h('label', { for: 'log-prefix' }, 'Stream prefix'), h('input', { id: 'log-prefix', name: 'prefix', size: 18 })),
    h('div', {}, h('label', { for: 'log-type' }, 'Type'), h('select', { id: 'log-type', name: 'type' },
      h('option', { value: '' }, 'any'), types.map((type) => h('option', { value: type }, type)))),
    h('div', {}, h('label', { for: 'log-subject' }, 'Subject (user)'), h('input', { id: 'log-subject', name: 'subject', size: 12 })),
    h('div', {}, h('label', { for: 'log-from' }, 'From position'), h('input', { id: 'log-from', name: 'from', type: 'number', min: 1, size: 10 })),
    h('div', {}, h('label', { for: 'log-time' }, 'Or from time (UTC)'), h('input', { id: 'log-time', name: 'time', placeholder: '2026-10-28T08:00:00Z', size: 22 })),
    h('button', { type: 'submit' }, 'Browse'));
  form.addEventListener('submit', (event) => { event.preventDefault(); browse(form); });

  // The live tail: newest first, at most 100 rows; pausing stops the stream, resuming continues after the last event shown.
  const tailRows = [];
  const tailBox = h('div', { id: 'tail' });
  let tailController = null;
  let lastSeen = overview.head;
  const tailButton = h('button', { type: 'button', id: 'tail-toggle', 'aria-pressed': 'false' }, 'Start the live tail');
  function drawTail() {
    fill(tailBox, table(`Live tail (${tailController ? 'running' : 'paused'}), after position ${count(lastSeen)}`,
      [['Position', true], ['Recorded'], ['Stream'], ['Type'], ['Subject'], ['']], rows(tailRows), { id: 'tail-table' }));
  }
  function paused() {
    tailController = null;
    tailButton.textContent = 'Resume the live tail';
    tailButton.setAttribute('aria-pressed', 'false');
    drawTail();
  }
  async function tail() {
    const controller = new AbortController();
    tailController = controller;
    signal.addEventListener('abort', () => controller.abort(), { once: true });
    tailButton.textContent = 'Pause the live tail';
    tailButton.setAttribute('aria-pressed', 'true');
    drawTail();
    try {
      await api.stream('/log/subscribe', tailController.signal, (message) => {
        const event = JSON.parse(message.data);
        lastSeen = event.position;
        tailRows.unshift(event);
        if (tailRows.length > 100) tailRows.pop();
        drawTail();
      }, lastSeen);
    } catch (error) {
      if (error.status === 401) return expired();
      if (error.name !== 'AbortError') status(`Tail stopped: ${error.message}`);
    } finally {
      // Ended by a pause, the server (a token's expiry) or a failure: it shows as paused.
      if (tailController === controller && !signal.aborted) paused();
    }
  }
  tailButton.addEventListener('click', () => {
    if (tailController) {
      const controller = tailController;
      paused();
      controller.abort();
    } else {
      tail();
    }
  });

  main.append(form, results, detail, h('h3', {}, 'Live tail'), tailButton, tailBox);
  drawTail();
  await browse(form);
}
