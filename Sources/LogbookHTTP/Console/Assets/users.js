// Users: find one by id; their profile, the week's chart, goals, timeline (human lines), and
// activities with the route drawn from route.geojson and the server's charts; erasure behind a
// confirmation that names the user.
import { h, count, fixed, table, svg, svgDocument, fill } from './view.js';

/** The route of a GeoJSON LineString feature as an SVG polyline (equirectangular, north up). */
function routeDrawing(feature, label) {
  const coordinates = (feature.geometry && feature.geometry.coordinates) || [];
  const attributes = { class: 'chart route', viewBox: '0 0 400 300', role: 'img', 'aria-label': `${label}: ${coordinates.length} points` };
  if (coordinates.length < 2) return svg('svg', attributes);
  const latitudes = coordinates.map((point) => point[1]);
  const middle = (Math.min(...latitudes) + Math.max(...latitudes)) / 2;
  const scaleX = Math.cos((middle * Math.PI) / 180);
  const xs = coordinates.map((point) => point[0] * scaleX);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...latitudes), Math.max(...latitudes)];
  const span = Math.max(maxX - minX, maxY - minY, 1e-9);
  const points = coordinates.map((point, index) =>
    `${(20 + ((xs[index] - minX) / span) * 360).toFixed(1)},${(280 - ((point[1] - minY) / span) * 260).toFixed(1)}`).join(' ');
  return svg('svg', attributes, svg('polyline', { class: 'line', points }));
}

export async function render({ api, main, status, args }) {
  const found = h('div', { id: 'user' });
  const form = h('form', { class: 'inline', id: 'user-find' },
    h('div', {}, h('label', { for: 'user-id' }, 'User id'), h('input', { id: 'user-id', name: 'user', required: true, size: 20, value: args[0] || '' })),
    h('div', {}, h('label', { for: 'user-week' }, 'Week containing (YYYY-MM-DD)'), h('input', { id: 'user-week', name: 'week', size: 12, placeholder: 'newest activity', pattern: '\\d{4}-\\d{2}-\\d{2}' })),
    h('button', { type: 'submit' }, 'Find'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries());
    load(values.user.trim(), values.week.trim()).catch((error) => fill(found, h('p', { class: 'error', role: 'alert' }, error.detail || error.message)));
  });
  main.append(form, found);

  async function activity(user, item, box) {
    const id = encodeURIComponent(item.workoutId);
    const parts = [h('h4', {}, `${item.title || item.activityType} on ${item.date}`)];
    try {
      parts.push(routeDrawing(await api.get(`/users/${encodeURIComponent(user)}/activities/${id}/route.geojson`), 'The route'));
    } catch (error) {
      parts.push(h('p', { class: 'muted' }, `No route: ${error.detail || error.message}`));
    }
    for (const metric of ['heartRate', 'pace']) {
      const chart = await api.svg(`/users/${encodeURIComponent(user)}/activities/${id}/chart.svg?metric=${metric}`).catch(() => null);
      if (chart) parts.push(svgDocument(chart, `${metric} chart`));
    }
    fill(box, ...parts);
    box.focus();
  }

  function eraseDialog(user) {
    const typed = h('input', { id: 'erase-confirm', size: 20, autocomplete: 'off' });
    const confirm = h('button', { type: 'button', class: 'danger', disabled: true }, `Erase ${user}`);
    const cancel = h('button', { type: 'button' }, 'Keep the user');
    const message = h('p', { role: 'alert' });
    const dialog = h('dialog', { 'aria-labelledby': 'erase-title' },
      h('h3', { id: 'erase-title' }, `Erase user ${user}?`),
      h('p', {}, `This destroys ${user}'s key: their payloads become unreadable for good and every read model forgets them. It cannot be undone.`),
      h('label', { for: 'erase-confirm' }, `Type ${user} to confirm`), typed, h('div', { class: 'actions' }, confirm, cancel), message);
    typed.addEventListener('input', () => { confirm.disabled = typed.value !== user; });
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => dialog.remove());   // Escape closes it too
    confirm.addEventListener('click', async () => {
      try {
        await api.delete(`/users/${encodeURIComponent(user)}`);
        message.textContent = `${user} was erased.`;
        status(message.textContent);
        confirm.disabled = true;
      } catch (error) {
        message.textContent = `Erasure refused: ${error.detail || error.message}`;
      }
    });
    document.body.append(dialog);
    dialog.showModal();
    typed.focus();
  }

  async function load(user, week) {
    const path = `/users/${encodeURIComponent(user)}`;
    const [profile, activities, timeline] = await Promise.all([
      api.get(`${path}/profile`), api.get(`${path}/activities?limit=10`), api.get(`${path}/timeline?limit=20`)]);
    const date = week || (activities.activities[0] && activities.activities[0].date) || new Date().toISOString().slice(0, 10);
    const [stats, goals, chart] = await Promise.all([
      api.get(`${path}/stats/weekly?date=${date}`), api.get(`${path}/goals/week?date=${date}`), api.svg(`${path}/stats/weekly.svg?date=${date}`)]);
    const activityBox = h('section', { id: 'activity', tabindex: '-1', 'aria-label': 'The chosen activity' });
    fill(found, 
      h('h3', {}, `${profile.displayName} (${user})`),
      table('Profile', [['Time zone'], ['Week starts'], ['Units'], ['Resting HR', true], ['Max HR', true]],
        [[profile.timeZone, profile.weekStart, profile.units, profile.restingHeartRate ?? '—', profile.maxHeartRate ?? '—']]),
      h('h3', {}, `The week of ${stats.from}`),
      h('p', {}, h('span', { 'data-field': 'week-steps' }, count(stats.steps)), ' steps, ', count(stats.totals.workouts), ' workouts, ',
        fixed(stats.totals.distanceMeters / 1000), ' km; goals met on ', h('span', { 'data-field': 'days-met' }, String(goals.daysMet)),
        ' of 7 days (streak ', String(goals.streaks.current), ', longest ', String(goals.streaks.longest), ')'),
      chart ? svgDocument(chart, `Daily steps of the week of ${stats.from}`) : null,
      h('h3', {}, 'Timeline'),
      h('ol', { id: 'timeline' }, timeline.entries.map((entry) => h('li', {}, h('span', { class: 'muted' }, `#${entry.position} ${entry.occurredAt} `), entry.description))),
      h('h3', {}, 'Activities'),
      table('The newest activities', [['Date'], ['Type'], ['Title'], ['Distance (km)', true], ['Moving', true], ['Avg HR', true], ['']],
        activities.activities.map((item) => [item.date, item.activityType, item.title || '—', fixed((item.distanceMeters || 0) / 1000, 2),
          `${Math.round((item.movingSeconds || 0) / 60)} min`, item.avgHeartRate ?? '—',
          h('button', { type: 'button', onclick: () => activity(user, item, activityBox), 'aria-label': `Show the activity of ${item.date}: ${item.title || item.activityType}` }, 'Show')]),
        { id: 'activity-table' }),
      activityBox,
      h('h3', {}, 'Erasure'),
      h('button', { type: 'button', class: 'danger', id: 'erase', onclick: () => eraseDialog(user) }, `Erase ${user}…`));
    status(`${user} loaded`);
  }

  if (args[0]) await load(args[0], '');
}
