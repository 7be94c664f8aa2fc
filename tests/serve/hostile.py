#!/usr/bin/env python3
"""hostile.py — requests to a running `boardpress serve`, over raw sockets
so that every byte is the test's own (no client library fixes a path up).
Run by tests/run-serve.sh, which starts the server on a site whose --out
holds planted links, a named pipe and a folder without a page, and puts a
sentinel file beside --out.

usage: hostile.py PORT OUT_DIR SENTINEL_FILE

Checks, each a request and the status it must get:
  - traversal in every spelling (.., %2e%2e, %2E%2e, an encoded '/' or
    '\\', a backslash, NUL, a control character, "//", absolute-form and
    "*" targets): 400;
  - a link out of --out (to a file, to a folder), a named pipe, a
    dot-file, a folder without index.html: 404, no listing, no hang;
  - POST, PUT, DELETE, OPTIONS, PATCH, TRACE: 405 with Allow: GET, HEAD;
  - a 40 KB header, 300 headers, a 100 KB path: 4xx;
  - a Host that is not exactly this machine and port, or two of them
    (DNS rebinding): 400;
  - what must work: Content-Type of every kind of file the site has,
    Cache-Control: no-store, ETag and 304 (If-None-Match, weak, "*"), HEAD
    without a body, /slug -> 301 /slug/ with its query, the 404 page, the
    page as served with the script before </body> while the file in
    --out has none, the script and the event stream's first event.
No response may hold the sentinel's bytes, and the sentinel and its folder
must not have been opened at all (inotify: no IN_OPEN, no IN_ACCESS).
Exits 1 after listing every failed check."""
import ctypes
import os
import socket
import struct
import sys
import time

PORT = int(sys.argv[1])
OUT = sys.argv[2]
SENTINEL = sys.argv[3]
SECRET = open(SENTINEL, "rb").read().strip()
failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)


# ------------------------------------------------------------ inotify on the sentinel

libc = ctypes.CDLL("libc.so.6", use_errno=True)
IN_ACCESS, IN_OPEN, IN_NONBLOCK = 0x1, 0x20, 0o4000
ino_fd = libc.inotify_init1(IN_NONBLOCK)
for watched in (SENTINEL, os.path.dirname(SENTINEL)):
    if libc.inotify_add_watch(ino_fd, watched.encode(), IN_ACCESS | IN_OPEN) < 0:
        sys.exit("hostile: cannot watch %s: errno %d" % (watched, ctypes.get_errno()))


def sentinel_events():
    """(mask, name) of every open or read of the sentinel or its folder so far."""
    out = []
    try:
        data = os.read(ino_fd, 65536)
    except BlockingIOError:
        return out
    at = 0
    while at < len(data):
        wd, mask, cookie, n = struct.unpack_from("iIII", data, at)
        name = data[at + 16:at + 16 + n].rstrip(b"\0").decode(errors="replace")
        out.append((hex(mask), name))
        at += 16 + n
    return out


# ------------------------------------------------------------ raw HTTP

def request(raw, timeout=5.0):
    """Send raw bytes, read the whole answer (the request asks the server
    to close). Returns (status, headers dict lower-case, body) or
    (None, {}, b"") when the server closed without a status line."""
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    try:
        s.sendall(raw)
        data = b""
        t0 = time.monotonic()
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return "timeout", {}, data
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
            if time.monotonic() - t0 > timeout:
                return "timeout", {}, data
    finally:
        s.close()
    check(SECRET not in data, "the sentinel's bytes in the answer to %r" % raw[:80])
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    if not lines or not lines[0].startswith(b"HTTP/1."):
        return None, {}, b""
    status = int(lines[0].split()[1])
    headers = {}
    for l in lines[1:]:
        k, _, v = l.partition(b":")
        headers[k.strip().lower().decode()] = v.strip().decode(errors="replace")
    return status, headers, body


def get(target, method="GET", extra=b"", host=None):
    host = host or ("127.0.0.1:%d" % PORT)
    if isinstance(target, str):
        target = target.encode()
    raw = b"%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n%s\r\n" % (
        method.encode(), target, host.encode(), extra)
    return request(raw)


def expect(target, want, **kw):
    status, headers, body = get(target, **kw)
    check(status == want, "%s %r: got %s, want %s" % (kw.get("method", "GET"), target, status, want))
    return status, headers, body


# ------------------------------------------------------------ hostile requests

rel_secret = os.path.relpath(SENTINEL, OUT)  # "../sentinel.txt"
secret_name = os.path.basename(SENTINEL)
for target in ["/../" + secret_name, "/" + rel_secret, "/static/../../" + secret_name,
               "/%2e%2e/" + secret_name, "/%2E%2e/" + secret_name, "/.%2e/" + secret_name,
               "/static/%2e%2e/%2e%2e/" + secret_name, "/..%2f" + secret_name,
               "/static%2f..%2f..%2f" + secret_name, "/%2e%2e%2f" + secret_name,
               "/..%5c" + secret_name, "/%5c..%5c" + secret_name, "/..\\" + secret_name,
               "/static\\..\\..\\" + secret_name, "/index.html%00.png", "/%00", "/a%00/",
               "/%0a", "/%7f", "/%zz", "/%2", "/%", "//" + secret_name, "/static//boardpress.css",
               "/./index.html", "/static/./boardpress.css", "/prose/.", "/prose/..",
               "*", "http://127.0.0.1:%d/../%s" % (PORT, secret_name), "index.html"]:
    expect(target, 400)

for target in ["/leak.txt", "/leak-folder/", "/leak-folder/" + secret_name, "/leak-folder",
               "/static/pipe", "/.hidden", "/static/.hidden", "/empty/", "/static/",
               "/prose/index.html/", "/nothing-here", "/__boardpress/nothing"]:
    t0 = time.monotonic()
    status, headers, body = expect(target, 404)
    check(time.monotonic() - t0 < 3, "%r answered at once" % target)
    check(b"Index of" not in body and b"leak" not in body.lower().replace(b"/leak", b""),
          "%r lists nothing" % target)
# a folder without its '/' is sent on to it, and there it is nothing
status, headers, _ = expect("/empty", 301)
check(headers.get("location") == "/empty/", "/empty -> %s" % headers.get("location"))

for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"]:
    status, headers, _ = expect("/", 405, method=method,
                                extra=b"Content-Length: 5\r\n" if method in ("POST", "PUT") else b"")
    check(headers.get("allow") == "GET, HEAD", "%s: Allow %r" % (method, headers.get("allow")))
status, headers, _ = request(b"POST / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
                             b"Content-Length: 11\r\n\r\nhello=world" % PORT)
check(status == 405, "POST with a body: %s" % status)

for label, raw in [
        ("a 40 KB header", b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Big: %s\r\n\r\n" % (PORT, b"a" * 40000)),
        ("300 headers", b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s\r\n" % (
            PORT, b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 100) for i in range(300)))),
        ("a 100 KB path", b"GET /%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (b"a" * 100000, PORT)),
        ("a 2 KB path", b"GET /%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % (b"a" * 2000, PORT)),
        ("no method", b"/ HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("garbage", b"\x01\x02 \xff\xfe HTTP/1.1\r\n\r\n"),
        ("HTTP/1.1 without Host", b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n"),
        ("a header line without a colon", b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nNo colon here\r\n\r\n" % PORT)]:
    status, headers, body = request(raw)
    check(status is None or (isinstance(status, int) and 400 <= status < 500),
          "%s: got %s, want 4xx (or a closed connection)" % (label, status))
# bare line feeds are read as line ends (as RFC 9112 lets a server); a
# control character in a header the server does not read changes nothing
status, headers, body = request(b"GET / HTTP/1.1\nHost: 127.0.0.1:%d\nConnection: close\nX: \x01\n\n" % PORT)
check(status == 200, "bare line feeds: got %s" % status)
# a NUL before the request line: no answer at all (the connection is
# dropped when idle, after the server's idle timeout)
status, headers, body = request(b"\x00\x01\x02 \xff\xfe HTTP/1.1\r\n\r\n", timeout=2)
check(status in ("timeout", None) and body == b"", "a NUL first: got %s %r" % (status, body[:40]))

# the Host header: one, exactly a loopback name, a colon and this port in
# digits; anything else is 400
for host in ["evil.example", "evil.example:%d" % PORT, "127.0.0.1:1", "localhost",
             "localhost:%d@evil.example" % PORT, "127.0.0.1:%djunk" % PORT,
             "127.0.0.1:%d, evil.example" % PORT, "localhost:%d evil.example" % PORT,
             "localhost:+%d" % PORT, "localhost:0%d" % PORT, "localhost.:%d" % PORT,
             "evil.example@localhost:%d" % PORT, "[::1]:%d]" % PORT, "127.0.0.1:"]:
    expect("/", 400, host=host)
status, _, _ = request(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: evil.example\r\n"
                       b"Connection: close\r\n\r\n" % PORT)
check(status == 400, "two Host lines: got %s, want 400" % status)
status, _, _ = request(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: 127.0.0.1:%d\r\n"
                       b"Connection: close\r\n\r\n" % (PORT, PORT))
check(status == 400, "the same Host twice: got %s, want 400" % status)
for host in ["localhost:%d" % PORT, "127.0.0.1:%d" % PORT, "[::1]:%d" % PORT]:
    expect("/", 200, host=host)

# ------------------------------------------------------------ what must work

types = {
    "/static/boardpress.css": "text/css; charset=utf-8",
    "/static/boardpress.js": "text/javascript; charset=utf-8",
    "/static/favicon.svg": "image/svg+xml",
    "/static/kinds/a.png": "image/png",
    "/static/kinds/a.ico": "image/vnd.microsoft.icon",
    "/static/kinds/a.wasm": "application/wasm",
    "/static/kinds/a.woff2": "font/woff2",
    "/static/kinds/a.jpg": "image/jpeg",
    "/static/kinds/a.webp": "image/webp",
    "/static/kinds/a.txt": "text/plain; charset=utf-8",
    "/static/kinds/a.unknown": "application/octet-stream",
    "/prose/results.json": "application/json",
    "/sitemap.xml": "application/xml",
    "/prose/": "text/html; charset=utf-8",
    "/": "text/html; charset=utf-8",
    "/__boardpress/reload.js": "text/javascript; charset=utf-8",
}
for target, want in types.items():
    status, headers, body = expect(target, 200)
    check(headers.get("content-type") == want, "%s: Content-Type %r, want %r" % (target, headers.get("content-type"), want))
    check(headers.get("cache-control") == "no-store", "%s: Cache-Control %r" % (target, headers.get("cache-control")))
    check(int(headers.get("content-length", -1)) == len(body), "%s: Content-Length" % target)

svg = [n for n in os.listdir(os.path.join(OUT, "board")) if n.endswith(".svg")]
check(svg, "the board page has SVGs")
for n in svg[:1]:
    status, headers, body = expect("/board/" + n, 200)
    check(headers.get("content-type") == "image/svg+xml", "an SVG drawing's type")
    check(body == open(os.path.join(OUT, "board", n), "rb").read(), "the SVG as written")

status, headers, body = expect("/static/boardpress.css", 200)
etag = headers.get("etag", "")
check(etag.startswith('"') and etag.endswith('"') and len(etag) > 2, "an ETag: %r" % etag)
for inm in [etag, "W/" + etag, '"other", ' + etag, "*"]:
    status, headers, body = expect("/static/boardpress.css", 304, extra=b"If-None-Match: %s\r\n" % inm.encode())
    check(body == b"" and headers.get("etag") == etag, "304 for %s: no body, the ETag" % inm)
expect("/static/boardpress.css", 200, extra=b'If-None-Match: "other"\r\n')
status, headers, body = expect("/static/boardpress.css", 200, method="HEAD")
check(body == b"" and int(headers.get("content-length", 0)) == os.path.getsize(
    os.path.join(OUT, "static/boardpress.css")), "HEAD: the length, no body")

status, headers, body = expect("/prose?x=1", 301)
check(headers.get("location") == "/prose/?x=1", "/prose?x=1 -> %s" % headers.get("location"))
status, headers, body = expect("/prose/?x=1", 200)

file_html = open(os.path.join(OUT, "prose/index.html"), "rb").read()
check(b"__boardpress" not in file_html, "the page in --out has no script")
status, headers, body = expect("/prose/", 200)
tag = b'<script src="/__boardpress/reload.js" data-etag="%s"></script>\n' % headers["etag"].strip('"').encode()
at = file_html.rfind(b"</body>")
check(body == file_html[:at] + tag + file_html[at:], "the page as served: the file, with the script before </body>")
status, headers, body = expect("/prose/", 304, extra=b"If-None-Match: %s\r\n" % headers["etag"].encode())

status, headers, body = expect("/not/here", 404)
check(headers.get("content-type") == "text/html; charset=utf-8" and b"Not found" in body and
      b"/__boardpress/reload.js" in body, "the 404 page, with the script")

# the event stream: its first event is the state of the last build
s = socket.create_connection(("127.0.0.1", PORT), timeout=5)
s.sendall(b"GET /__boardpress/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % PORT)
data = b""
while b"event: hello" not in data or not data.rstrip().endswith(b"}"):
    chunk = s.recv(4096)
    if not chunk:
        break
    data += chunk
s.close()
check(b"text/event-stream" in data and b'event: hello\ndata: {"gen":1,"ok":true,"errors":[]}' in data,
      "the event stream says hello: %r" % data[-200:])

events = sentinel_events()
check(not events, "the sentinel or its folder was opened or read: %s" % events)
if failures:
    for f in failures:
        print("hostile: FAIL: " + f)
    sys.exit(1)
print("hostile: %d checks passed; the sentinel beside --out was never opened" % checks)
