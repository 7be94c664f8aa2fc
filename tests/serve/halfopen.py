"""halfopen.py — `boardpress serve` keeps answering while connections
from 127.0.0.1 sit half-open: 200 sockets that never send a whole request
(half of them send nothing, half the start of a request line), then an
ordinary GET must be answered while they are still open, and the server
must close them itself in the end (its short time for a connection that
has sent no request).

usage: halfopen.py PORT
Waits for events (an answer, a closed socket) with generous bounds, never
a fixed time."""
import select
import socket
import sys
import time

PORT = int(sys.argv[1])
N = 200
held = []
for i in range(N):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=10)
    if i % 2:
        s.sendall(b"GET / HT")
    held.append(s)


def still_open(s):
    s.setblocking(False)
    try:
        return s.recv(1) != b""  # data would be odd, but the socket is open
    except BlockingIOError:
        return True
    except OSError:
        return False


g = socket.create_connection(("127.0.0.1", PORT), timeout=30)
g.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % PORT)
data = b""
while True:
    chunk = g.recv(65536)
    if not chunk:
        break
    data += chunk
g.close()
open_now = sum(still_open(s) for s in held)
fail = []
if not data.startswith(b"HTTP/1.1 200"):
    fail.append("the GET beside %d half-open connections got %r" % (N, data[:60]))
if open_now < N * 9 // 10:
    fail.append("only %d of the %d half-open connections were still open when the GET was "
                "answered: nothing was proved" % (open_now, N))
# the server closes them itself (bounded: a minute)
deadline = time.monotonic() + 60
left = list(held)
while left and time.monotonic() < deadline:
    r, _, _ = select.select(left, [], [], 1)
    for s in r:
        if not still_open(s):
            left.remove(s)
if left:
    fail.append("%d half-open connections were never closed by the server" % len(left))
for s in held:
    s.close()
if fail:
    for f in fail:
        print("halfopen: FAIL: " + f)
    sys.exit(1)
print("halfopen: a GET was answered beside %d half-open connections (%d still open); "
      "the server closed them all" % (N, open_now))
