#!/usr/bin/env python3
"""The explorer's answer cache under a flood of equivalent queries: 65,536 spellings
of the 4x5 start's query (padding `&`, percent-escapes, the board's case) from 8
clients; prints the server's resident memory before and after (Linux). The server
is BINARY (`breakthrough`), one solver thread, on a fresh store in a temporary
directory. Usage: scripts/explorer-cache-flood.py BINARY"""
import re, shutil, socket, subprocess, sys, tempfile, threading, time

binary = sys.argv[1]
store = tempfile.mkdtemp(prefix="explorer-cache-flood-")
server = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0", "--store", store,
                           "--results", "/nonexistent", "--threads", "1"],
                          stderr=subprocess.PIPE, text=True)
line = server.stderr.readline()
while "http://" not in line:
    line = server.stderr.readline()
host, port = re.search(r"http://([^/]+)/", line).group(1).split(":")
def get(path):
    s = socket.create_connection((host, int(port)))
    s.sendall(f"GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk: break
        data += chunk
    s.close()
    return int(data[9:12])
def rss():
    for l in open(f"/proc/{server.pid}/status"):
        if l.startswith("VmRSS:"): return int(l.split()[1])
start = "BBBB/BBBB/4/WWWW/WWWW w"
assert get("/api/v1/position?board=4x5") == 200
before = rss()
def flood(k):
    for i in range(8192):
        n = k * 8192 + i
        board = ["4x5", "4X5", "%34x%35", "4%785"][n % 4]
        pad = "&" * (n // 4 % 400)
        slash = "/" if n // 1600 % 2 == 0 else "%2F"
        tail = "&" * (n // 3200)
        position = start.replace("/", slash).replace(" ", "+")
        assert get(f"/api/v1/position?{pad}board={board}&position={position}{tail}") == 200
t0 = time.time()
threads = [threading.Thread(target=flood, args=(k,)) for k in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(f"65,536 spellings in {time.time()-t0:.1f} s: resident {before/1024:.1f} MiB -> {rss()/1024:.1f} MiB")
server.terminate(); server.wait(timeout=60)
shutil.rmtree(store, ignore_errors=True)
