#!/usr/bin/env python3
"""Local stand-in for the gitiles host `systrace --update-viewer` downloads
from (tests only, 127.0.0.1).  Serves the viewer and the polyfill given on
the command line under their pinned paths, in variants chosen by the first
path component:

  /good/PATH?format=TEXT    base64 of the file (what gitiles does)
  /raw/PATH                 the raw file (a plain mirror)
  /badsum/PATH              base64 of the file with one byte changed
  /short/PATH               base64 of the file minus its last 3 bytes
  /cut/PATH                 base64 text cut short (correct Content-Length)
  /trunc/PATH               Content-Length of the whole, then half and close
  /404/PATH                 404
  /slow/PATH                headers and a few bytes, then silence
  /redirect/PATH            302 to /good/PATH
  /alt/PATH?format=TEXT     like good, with ALT_VIEWER as the viewer

It also acts as an HTTP forward proxy (absolute-form request targets).
Every request line goes to LOG.  Usage:
  viewer_server.py PORTFILE LOG VIEWER POLYFILL [ALT_VIEWER]
The port (chosen by the kernel) is written to PORTFILE once listening."""
import base64
import http.server
import os
import socketserver
import sys
import time
import urllib.parse

VIEWER_PATH = 'catapult/systrace/systrace/systrace_trace_viewer.html'
POLYFILL_PATH = 'catapult/third_party/polymer/components/webcomponentsjs/webcomponents.min.js'


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, fmt, *args):
        pass

    def send(self, code, body, length=None):
        self.send_response(code)
        self.send_header('Content-Type', 'text/plain; charset=utf-8')
        self.send_header('Content-Length', str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with open(self.server.log, 'a') as f:
            f.write(self.requestline + '\n')
        target = self.path
        if target.startswith('http://'):          # proxied
            target = urllib.parse.urlsplit(target)._replace(scheme='', netloc='').geturl()
        path = urllib.parse.urlsplit(target).path.lstrip('/')
        variant, _, rest = path.partition('/')
        files = {VIEWER_PATH: self.server.viewer, POLYFILL_PATH: self.server.polyfill}
        if variant == 'alt':
            files[VIEWER_PATH] = self.server.alt
            variant = 'good'
        data = files.get(rest)
        if data is None or variant == '404':
            return self.send(404, b'Not Found\n')
        if variant == 'redirect':
            self.send_response(302)
            self.send_header('Location', '/good/' + rest + '?format=TEXT')
            self.send_header('Content-Length', '0')
            self.end_headers()
            return None
        b64 = base64.b64encode(data)
        if variant == 'good':
            return self.send(200, b64)
        if variant == 'raw':
            return self.send(200, data)
        if variant == 'badsum':
            return self.send(200, base64.b64encode(data[:100] + b'X' + data[101:]))
        if variant == 'short':
            return self.send(200, base64.b64encode(data[:-3]))
        if variant == 'cut':
            return self.send(200, b64[:len(b64) // 2 + 1])
        if variant == 'trunc':
            self.send_response(200)
            self.send_header('Content-Length', str(len(b64)))
            self.end_headers()
            self.wfile.write(b64[:len(b64) // 2])
            self.wfile.flush()
            self.close_connection = True
            return None
        if variant == 'slow':
            self.send_response(200)
            self.send_header('Content-Length', str(len(b64)))
            self.end_headers()
            self.wfile.write(b64[:10])
            self.wfile.flush()
            time.sleep(30)
            return None
        return self.send(404, b'Not Found\n')


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    portfile, log, viewer, polyfill = sys.argv[1:5]
    srv = Server(('127.0.0.1', 0), Handler)
    srv.log = log
    srv.viewer = open(viewer, 'rb').read()
    srv.polyfill = open(polyfill, 'rb').read()
    srv.alt = open(sys.argv[5], 'rb').read() if len(sys.argv) > 5 else srv.viewer
    open(log, 'w').close()
    with open(portfile + '.tmp', 'w') as f:
        f.write(str(srv.server_address[1]))
    os.rename(portfile + '.tmp', portfile)
    srv.serve_forever()


main()
