#!/usr/bin/env python3
"""The console in a real browser: Debian's chromium driven by Playwright (launched with
executable_path, so nothing is downloaded), against a running `logbook serve` over demo data.

    console_test.py --base http://127.0.0.1:PORT --admin ADMIN_TOKEN --code SIGN_IN_CODE --user-token TOKEN \
                    --user u-1000 --erase u-1002 --screenshots DIR

Checks: every page loads with no console error (a CSP violation is one); the numbers shown equal
the API's; the one-time sign-in link signs in, leaves the address bar and the tab keeps a short-lived
token, not the code, and the same link refused in another tab; an append moves the overview live; a rebuild's progress bar reaches 100 %; a wrong token
and a user's token are refused; keyboard-only navigation (Tab) reaches every action on every page,
and Enter starts one; an erasure names the user and needs them typed. Saves a screenshot of each
page and prints measurements (asset bytes, first contentful paint) as one JSON line.
"""
import argparse
import base64
import json
import os
import sys
import time
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

PAGES = ['overview', 'read-models', 'log', 'users', 'caches', 'webhooks']
ASSETS = ['', 'console.css', 'app.js', 'api.js', 'view.js', 'overview.js', 'readmodels.js', 'log.js', 'users.js', 'caches.js', 'webhooks.js']


def api(base, token, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, headers={'Authorization': f'Bearer {token}', 'Content-Type': 'application/json'},
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
        return json.loads(text) if text else None


GPX = '''<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="console-test" xmlns="http://www.topografix.com/GPX/1/1">
<trk><name>Console test run</name><type>running</type><trkseg>
<trkpt lat="52.5200" lon="13.4050"><time>2026-11-24T07:00:00Z</time></trkpt>
<trkpt lat="52.5210" lon="13.4070"><time>2026-11-24T07:01:00Z</time></trkpt>
<trkpt lat="52.5225" lon="13.4085"><time>2026-11-24T07:02:00Z</time></trkpt>
<trkpt lat="52.5230" lon="13.4110"><time>2026-11-24T07:03:00Z</time></trkpt>
<trkpt lat="52.5245" lon="13.4120"><time>2026-11-24T07:04:00Z</time></trkpt>
</trkseg></trk></gpx>'''


def has_route(base, token, user, workout):
    try:
        api(base, token, 'GET', f'/users/{user}/activities/{urllib.request.quote(workout)}/route.geojson')
        return True
    except urllib.error.HTTPError:
        return False


def number(text):
    return int(text.replace(',', '').strip())


class Check:
    def __init__(self):
        self.failures = []

    def that(self, condition, message):
        if not condition:
            self.failures.append(message)
            print(f'FAIL: {message}', file=sys.stderr)
        return condition


def wait_until(predicate, seconds, message):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    raise AssertionError(f'timed out after {seconds} s: {message}')


def no_stray_text(page, check, name):
    """No value rendered as JavaScript's own text (a node or array stringified, an absent value)."""
    lines = [line.strip() for line in page.inner_text('main').split('\n')]
    stray = [line for line in lines if '[object ' in line or line in ('null', 'undefined', 'NaN')]
    check.that(not stray, f'{name}: stray text {stray[:3]}')


def keyboard_reaches_every_action(page, check, name):
    """Tabs from the top of the document until focus wraps; every visible control must be reached."""
    controls = page.eval_on_selector_all(
        'a[href], button:not([disabled]), input, select, textarea',
        "els => els.filter(e => e.offsetParent !== null && !e.closest('[hidden]')).map(e => e.outerHTML.slice(0, 120))")
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.focus('body')
    reached = set()
    for _ in range(len(controls) * 2 + 10):
        page.keyboard.press('Tab')
        reached.add(page.evaluate("() => document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : ''"))
    missing = [c for c in controls if c not in reached]
    check.that(not missing, f'{name}: Tab never reached {missing[:5]}')
    return len(controls)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--base', required=True)
    parser.add_argument('--admin', required=True)
    parser.add_argument('--code', required=True, help='a one-time console sign-in code (logbook console-url)')
    parser.add_argument('--user-token', required=True)
    parser.add_argument('--user', required=True)
    parser.add_argument('--erase', required=True)
    parser.add_argument('--screenshots', required=True)
    parser.add_argument('--chromium', default=os.environ.get('CHROMIUM', '/usr/bin/chromium'))
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    base, admin = args.base, args.admin
    check = Check()
    measured = {}

    asset_bytes = 0
    for name in ASSETS:
        with urllib.request.urlopen(f'{base}/console/{name}', timeout=10) as response:
            asset_bytes += len(response.read())
            check.that('script-src \'self\'' in response.headers.get('Content-Security-Policy', ''), f'{name or "index"}: no strict CSP')
    measured['console_asset_bytes'] = asset_bytes
    check.that(asset_bytes < 200_000, f'the console is {asset_bytes} bytes, over 200 kB')

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=args.chromium,
            args=['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync',
                  '--no-first-run', '--disable-default-apps', '--disable-dev-shm-usage'])
        context = browser.new_context(viewport={'width': 1280, 'height': 900})
        page = context.new_page()
        errors = []
        page.on('console', lambda message: message.type == 'error' and errors.append(f'console: {message.text}'))
        page.on('pageerror', lambda error: errors.append(f'page error: {error}'))
        page.on('dialog', lambda dialog: dialog.dismiss())

        def loaded(name):
            page.wait_for_selector(f'main[data-loaded="{name}"]', timeout=20_000)

        # A wrong token, then a user's (not an administrator's), are refused.
        page.goto(f'{base}/console/')
        page.fill('#token', 'not-a-token')
        page.click('#sign-in-form button[type=submit]')
        page.wait_for_selector('#sign-in-error:has-text("refused")', timeout=10_000)
        check.that(page.is_hidden('#nav'), 'the pages are shown after a wrong token')
        page.fill('#token', args.user_token)
        page.click('#sign-in-form button[type=submit]')
        page.wait_for_selector('#sign-in-error:has-text("not an administrator")', timeout=10_000)
        no_stray_text(page, check, '0-sign-in-refused')
        page.screenshot(path=f'{args.screenshots}/0-sign-in-refused.png', full_page=True)
        errors.clear()  # the refusals' 401 and 403 are logged by the browser as failed loads

        # The one-time link: the overview, its first paint, the code gone from the address bar, and a
        # short-lived token (not the code) in the tab.
        page.goto(f'{base}/console/#code={args.code}')
        loaded('overview')
        check.that('code=' not in page.url, 'the code stays in the address bar')
        held = page.evaluate("() => sessionStorage.getItem('logbook-console-token')") or ''
        check.that(held and held != args.code and held != admin, 'the tab does not hold a token of its own from the exchange')
        if held.count('.') == 2:
            claims = json.loads(base64.urlsafe_b64decode(held.split('.')[1] + '=' * (-len(held.split('.')[1]) % 4)))
            check.that(claims.get('role') == 'admin' and claims['exp'] - time.time() <= 3600, f'the session token is not short-lived: {claims}')
        # The same link again, in another tab: refused, the pages not shown.
        other = browser.new_context().new_page()
        other.goto(f'{base}/console/#code={args.code}')
        other.wait_for_selector('#sign-in-error:has-text("used already")', timeout=10_000)
        check.that(other.is_hidden('#nav'), 'a spent sign-in link shows the pages')
        check.that('code=' not in other.url, 'a spent code stays in the address bar')
        other.context.close()
        paint = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
        measured['first_contentful_paint_ms'] = paint
        measured['overview_loaded_ms'] = page.evaluate("() => performance.now()")
        expected = api(base, admin, 'GET', '/admin/overview')
        check.that(number(page.inner_text('[data-field=head]')) == expected['head'], 'overview: head differs from the API')
        shown_types = page.eval_on_selector_all('#events-by-type tbody tr', "rows => rows.map(r => [r.cells[0].textContent, r.cells[1].textContent])")
        check.that([(t, number(c)) for t, c in shown_types] == [(e['type'], e['count']) for e in expected['eventsByType']],
                   'overview: events by type differ from the API')
        shown_servers = page.eval_on_selector_all('#servers tbody tr', "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
        check.that([(row[0], number(row[4]), row[7]) for row in shown_servers]
                   == [(s['name'] + (' (this one)' if s['thisServer'] else ''), s['readThrough'], 'delivers' if s['deliversWebhooks'] else 'stands by')
                       for s in expected['servers']],
                   f'overview: the servers differ from the API: {shown_servers}')
        no_stray_text(page, check, '1-overview')
        page.screenshot(path=f'{args.screenshots}/1-overview.png', full_page=True)

        # An append moves the overview live (over SSE, no reload).
        before = number(page.inner_text('[data-field=head]'))
        head = api(base, args.user_token, 'POST', f'/users/{args.user}/steps',
                   {'samples': [{'start': '2026-11-22T08:02:00Z', 'end': '2026-11-22T08:03:00Z', 'count': 90, 'source': 'phone'}]})['lastPosition']
        check.that(head > before, 'the append did not move the head')
        started = time.time()
        wait_until(lambda: number(page.inner_text('[data-field=head]')) == head, 10, 'the overview to show the appended head')
        measured['overview_live_update_ms'] = round((time.time() - started) * 1000)
        controls = {'overview': keyboard_reaches_every_action(page, check, 'overview')}
        # The skip link (the Tab stop before the pages' links) moves focus to the page and stays on it.
        page.focus('nav a[href="#/overview"]')
        page.keyboard.press('Shift+Tab')
        check.that(page.evaluate("() => document.activeElement.className") == 'skip', 'the skip link is not the Tab stop before the pages')
        page.keyboard.press('Enter')
        check.that(page.evaluate("() => document.activeElement.id") == 'page' and page.get_attribute('main', 'data-loaded') == 'overview'
                   and page.url.endswith('#/overview'), 'the skip link left the page')

        # Caches first (the user page's queries fill them): entries equal the API's.
        page.goto(f'{base}/console/#/caches')
        loaded('caches')
        for cache in api(base, admin, 'GET', '/admin/caches'):
            check.that(number(page.inner_text(f'[data-field="entries-{cache["name"]}"]')) == cache['entries'], f'caches: {cache["name"]} entries differ')
        no_stray_text(page, check, '5-caches')
        page.screenshot(path=f'{args.screenshots}/5-caches.png', full_page=True)
        controls['caches'] = keyboard_reaches_every_action(page, check, 'caches')

        # Read models: positions equal the API's; a rebuild, started from the keyboard, reaches 100 %.
        page.goto(f'{base}/console/#/read-models')
        loaded('read-models')
        for status in api(base, admin, 'GET', '/admin/projections'):
            check.that(number(page.inner_text(f'[data-field="position-{status["projection"]}"]')) == status['position'],
                       f'read models: {status["projection"]} position differs')
        controls['read-models'] = keyboard_reaches_every_action(page, check, 'read models')
        page.focus('#rebuild-all')
        page.keyboard.press('Enter')
        page.wait_for_selector('#job-table progress', timeout=10_000)
        job = page.get_attribute('#job-table tbody tr:first-child progress', 'data-job')
        page.wait_for_selector(f'progress[data-job="{job}"][value="100"]', timeout=120_000)
        page.wait_for_selector('#job-table tbody tr:first-child [data-state=succeeded]', timeout=30_000)
        check.that(api(base, admin, 'GET', f'/admin/jobs/{job}')['state'] == 'succeeded', 'the rebuild job did not succeed')
        no_stray_text(page, check, '2-read-models')
        page.screenshot(path=f'{args.screenshots}/2-read-models.png', full_page=True)

        # Log: a type filter, an event's envelope and payload, and the live tail.
        page.goto(f'{base}/console/#/log')
        loaded('log')
        page.select_option('#log-type', 'workout.finished')
        page.click('#log-filter button[type=submit]')
        page.wait_for_selector('#log-table caption:has-text("of type workout.finished")')
        types = page.eval_on_selector_all('#log-table tbody tr', "rows => rows.map(r => r.cells[3].textContent)")
        check.that(types and all(t == 'workout.finished' for t in types), f'log: the type filter showed {set(types)}')
        first = number(page.inner_text('#log-table tbody tr:first-child td:first-child'))
        page.click('#log-table tbody tr:first-child button')
        shown = json.loads(page.inner_text('[data-field=event-json]'))
        check.that(shown['position'] == first and shown['type'] == 'workout.finished' and 'data' in shown, 'log: the event shown is not the one chosen')
        page.click('#tail-toggle')
        page.wait_for_selector('#tail-table caption:has-text("running")')
        time.sleep(0.5)
        appended = api(base, args.user_token, 'POST', f'/users/{args.user}/steps',
                       {'samples': [{'start': '2026-11-22T09:00:00Z', 'end': '2026-11-22T09:01:00Z', 'count': 50, 'source': 'phone'}]})
        page.wait_for_selector('#tail-table tbody tr', timeout=10_000)
        check.that(number(page.inner_text('#tail-table tbody tr:first-child td:first-child')) == appended['lastPosition'],
                   f'log: the tail does not show the append ({appended})')
        page.click('#tail-toggle')
        page.wait_for_selector('#tail-table caption:has-text("paused")')
        controls['log'] = keyboard_reaches_every_action(page, check, 'log')
        no_stray_text(page, check, '3-log')
        page.screenshot(path=f'{args.screenshots}/3-log.png', full_page=True)

        # Users: the week's steps and goals equal the API's; an activity's route (a GPX run imported
        # now: the demo data has no routes); erasure names the user.
        upload = urllib.request.Request(f'{base}/users/{args.user}/imports', method='POST', data=GPX.encode(),
                                        headers={'Authorization': f'Bearer {args.user_token}', 'Content-Type': 'application/gpx+xml'})
        urllib.request.urlopen(upload, timeout=30).read()
        page.goto(f'{base}/console/#/users/{args.user}')
        loaded('users')
        activities = api(base, admin, 'GET', f'/users/{args.user}/activities?limit=10')['activities']
        date = activities[0]['date']
        stats = api(base, admin, 'GET', f'/users/{args.user}/stats/weekly?date={date}')
        goals = api(base, admin, 'GET', f'/users/{args.user}/goals/week?date={date}')
        check.that(number(page.inner_text('[data-field=week-steps]')) == stats['steps'], 'users: the week\'s steps differ')
        check.that(number(page.inner_text('[data-field=days-met]')) == goals['daysMet'], 'users: days met differ')
        check.that(page.eval_on_selector_all('#timeline li', 'items => items.length') > 0, 'users: the timeline is empty')
        tracked = next((index for index, item in enumerate(activities) if has_route(base, admin, args.user, item['workoutId'])), None)
        if check.that(tracked is not None, 'users: no activity with a route among the newest'):
            page.click(f'#activity-table tbody tr:nth-child({tracked + 1}) button')
            page.wait_for_selector('#activity svg polyline', timeout=10_000)
        controls['users'] = keyboard_reaches_every_action(page, check, 'users')
        no_stray_text(page, check, '4-users')
        page.screenshot(path=f'{args.screenshots}/4-users.png', full_page=True)
        page.goto(f'{base}/console/#/users/{args.erase}')
        loaded('users')
        page.click('#erase')
        dialog_text = page.inner_text('dialog')
        check.that(args.erase in dialog_text, 'the erasure dialog does not name the user')
        confirm = page.locator('dialog button.danger')
        check.that(confirm.is_disabled(), 'erasure can be confirmed without typing the user')
        page.keyboard.press('Escape')   # closed without erasing, then opened again
        try:
            page.wait_for_selector('dialog', state='detached', timeout=5_000)
        except Exception:
            check.that(False, 'a closed erasure dialog stays in the page')
        page.click('#erase')
        page.fill('#erase-confirm', args.erase)
        no_stray_text(page, check, '4-users-erase')
        page.screenshot(path=f'{args.screenshots}/4-users-erase.png', full_page=True)
        confirm.click()
        page.wait_for_selector('dialog [role=alert]:has-text("was erased")', timeout=30_000)
        page.click('dialog button:has-text("Keep the user")')

        # Webhooks: one made through the API is listed with its numbers, its URL's query redacted.
        # (.invalid never resolves: nothing is sent anywhere.)
        hook = api(base, admin, 'POST', '/admin/webhooks', {'url': 'https://receiver.invalid/never?token=console-token', 'secret': 'a-webhook-secret-of-32-bytes-at-least!', 'eventTypes': ['workout.finished']})
        page.goto(f'{base}/console/#/webhooks')
        loaded('webhooks')
        check.that(hook['id'] in page.inner_text('#webhook-table'), 'webhooks: the new webhook is not listed')
        check.that('console-token' not in page.content(), "webhooks: a URL's query is shown")
        controls['webhooks'] = keyboard_reaches_every_action(page, check, 'webhooks')
        no_stray_text(page, check, '6-webhooks')
        page.screenshot(path=f'{args.screenshots}/6-webhooks.png', full_page=True)
        api(base, admin, 'DELETE', f'/admin/webhooks/{hook["id"]}')

        measured['controls_reached_by_keyboard'] = controls
        check.that(not errors, f'console errors: {errors}')
        browser.close()

    measured['failures'] = check.failures
    print(json.dumps(measured))
    return 1 if check.failures else 0


if __name__ == '__main__':
    sys.exit(main())
