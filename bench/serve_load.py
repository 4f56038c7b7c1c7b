"""A bounded load test of `nimbus serve` on loopback; run by bench/serve_load.sh.

Starts the server on a free port, then for each request kind sends a fixed number of requests
from a fixed number of client threads (each its own keep-alive connection) and prints requests
per second, p50 and p99 latency and the errors; the server's resident memory before and after;
and how long a cheap request (GET /api/health) takes while every computation slot is held by
a long search.
"""

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

NIMBUS = sys.argv[1]
REQUESTS = int(os.environ.get("REQUESTS", "2000"))
CLIENTS = int(os.environ.get("CLIENTS", "8"))

KINDS = [
    ("nash 3x3", "/api/nash", {"game": {"row": "3 1 0; 0 2 1; 1 0 3", "col": "1 3 0; 2 0 1; 0 1 2"}}),
    ("nash 2x2 (PD)", "/api/nash", {"game": {"row": "3 0; 5 1", "col": "3 5; 0 1"}}),
    ("connect4 Pons L2 #1 (exact)", "/api/solve", {"game": "connect4", "position": "5554224333234511764415115"}),
    ("sg kayles 7 + nim 3", "/api/sg", {"expression": "kayles 7 + nim 3"}),
]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def client(host, port, path, body, n, latencies, errors):
    conn = http.client.HTTPConnection(host, port, timeout=60)
    data = json.dumps(body)
    for _ in range(n):
        t = time.perf_counter()
        try:
            conn.request("POST", path, data, {"content-type": "application/json"})
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                errors.append(r.status)
        except Exception as e:  # noqa: BLE001 - counted, not raised
            errors.append(str(e))
            conn = http.client.HTTPConnection(host, port, timeout=60)
        latencies.append(time.perf_counter() - t)


def main():
    server = subprocess.Popen([NIMBUS, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    host, port = re.search(r"http://([\d.]+):(\d+)/", line).groups()
    port = int(port)
    slots = int(re.search(r"\((\d+) computation slots", line).group(1))
    print(f"# {os.uname().nodename}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}; "
          f"{REQUESTS} requests of each kind from {CLIENTS} clients; server with {slots} slots")
    before = rss_kib(server.pid)
    print("| request | req/s | p50 | p99 | errors |")
    print("|---|---|---|---|---|")
    for name, path, body in KINDS:
        latencies, errors, threads = [], [], []
        per = REQUESTS // CLIENTS
        started = time.perf_counter()
        for _ in range(CLIENTS):
            t = threading.Thread(target=client, args=(host, port, path, body, per, latencies, errors))
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        q = statistics.quantiles(latencies, n=100)
        print(f"| {name} | {len(latencies) / elapsed:.0f} | {q[49] * 1e3:.2f} ms | "
              f"{q[98] * 1e3:.2f} ms | {len(errors)} |")
    after = rss_kib(server.pid)
    print(f"\nresident memory: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after")
    # Every slot held by a search of two seconds; the health check must not wait for them.
    holders = [threading.Thread(target=client, args=(host, port, "/api/solve",
               {"game": "connect4", "time_limit": 2.0}, 1, [], [])) for _ in range(slots)]
    for t in holders:
        t.start()
    time.sleep(0.3)
    conn = http.client.HTTPConnection(host, port, timeout=10)
    times = []
    for _ in range(20):
        t = time.perf_counter()
        conn.request("GET", "/api/health")
        free = json.loads(conn.getresponse().read())["free"]
        times.append(time.perf_counter() - t)
    for t in holders:
        t.join()
    print(f"GET /api/health with every slot busy (free = {free}): median "
          f"{statistics.median(times) * 1e3:.2f} ms, max {max(times) * 1e3:.2f} ms over 20")
    server.terminate()
    code = server.wait(timeout=10)
    print(f"server stopped on SIGTERM with status {code}")


main()
