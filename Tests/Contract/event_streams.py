#!/usr/bin/env python3
"""Every Server-Sent Events stream of a running `logbook serve`, held to the API document event by
event with schemathesis's own checks (status, content type, and each event against the schema the
document gives a stream: one event's, as schemathesis reads a text/event-stream schema before
OpenAPI 3.2 and `itemSchema` after it).

    event_streams.py --schema Schemas/openapi.json --base http://127.0.0.1:PORT --admin TOKEN --user u-1000

Each stream is asked to end after a few events (`limit`), so its whole answer is checked. First the
checks are shown to bite: an overview event whose data breaks the schema is reported. Prints one
line per stream; exits 1 on any violation.
"""
import argparse
import datetime
import sys

import requests
import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance, status_code_conformance

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def answer(url, body):
    """A requests.Response holding `body` as an event stream, as if `url` had answered it."""
    response = requests.Response()
    response.status_code = 200
    response.headers['Content-Type'] = 'text/event-stream'
    response._content = body.encode()
    response.url = url
    response.request = requests.Request('GET', url).prepare()
    response.elapsed = datetime.timedelta(0)
    return response


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--schema', required=True)
    parser.add_argument('--base', required=True)
    parser.add_argument('--admin', required=True)
    parser.add_argument('--user', required=True)
    args = parser.parse_args()
    schema = schemathesis.openapi.from_path(args.schema)
    failures = 0

    overview = schema['/admin/overview/subscribe']['GET']
    probe = overview.Case(query={'limit': 1})
    broken = 'retry: 2000\n\nevent: overview\ndata: {"head":"no"}\n\n'
    try:
        probe.validate_response(answer(args.base + '/admin/overview/subscribe', broken), checks=[response_schema_conformance])
        caught = ''
    except (Exception, BaseExceptionGroup) as error:  # schemathesis reports its findings as an exception group
        caught = str(error)
    if 'SSE event' in caught:
        print('a broken overview event is caught: SSE event payload violates content schema')
    else:
        print(f'FAIL: an overview event is not checked against its schema: {caught or "accepted"}', file=sys.stderr)
        failures += 1

    streams = [
        ('/admin/overview/subscribe', {}, {'limit': 2}),
        ('/log/subscribe', {}, {'limit': 5, 'after': 0}),
        ('/users/{user}/events/subscribe', {'user': args.user}, {'limit': 5, 'after': 0}),
    ]
    for path, parameters, query in streams:
        case = schema[path]['GET'].Case(path_parameters=parameters, query=query, headers={'Authorization': f'Bearer {args.admin}'})
        response = case.call(base_url=args.base, timeout=120)
        events = response.text.count('\ndata: ') + response.text.startswith('data: ')
        try:
            case.validate_response(response, checks=CHECKS)
            print(f'{path}: {response.status_code}, {events} events, each valid against the document')
        except (Exception, BaseExceptionGroup) as error:  # schemathesis's findings
            print(f'FAIL: {path}: {error}', file=sys.stderr)
            failures += 1
        if events < query['limit']:
            print(f'FAIL: {path}: {events} events, not {query["limit"]}', file=sys.stderr)
            failures += 1
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
