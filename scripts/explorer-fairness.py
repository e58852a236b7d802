#!/usr/bin/env python3
"""The explorer's fairness: 70 distinct 8x8 positions asked over 20 s (each request
waiting for its answer), then the 4x4 start asked 5 s later and again each second
until it has a value (at most 120 s). Prints how long that took. The server is
BINARY (`breakthrough`) with its defaults, on a fresh store in a temporary
directory. Usage: scripts/explorer-fairness.py BINARY"""
import json, re, shutil, subprocess, sys, tempfile, threading, time, urllib.parse, urllib.request

binary = sys.argv[1]
store = tempfile.mkdtemp(prefix="explorer-fairness-")
server = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0", "--store", store,
                           "--results", "/nonexistent"], stderr=subprocess.PIPE, text=True)
line = server.stderr.readline()
while "http://" not in line:
    line = server.stderr.readline()
addr = re.search(r"http://([^/]+)/", line).group(1)
def get(query):
    with urllib.request.urlopen(f"http://{addr}/api/v1/position?{query}", timeout=600) as r:
        return json.load(r)
# 8x8 positions two plies from the start: a white pawn of rank 2 forward, then a
# black pawn of rank 7 forward (no captures are possible yet).
def text(rows, side):
    out = []
    for row in rows:
        t, run = "", 0
        for c in row:
            if c == ".": run += 1
            else:
                if run: t += str(run); run = 0
                t += c
        if run: t += str(run)
        out.append(t)
    return "/".join(out) + " " + side
positions = []
for wc in range(8):
    for wd in (-1, 0, 1):
        if not 0 <= wc + wd < 8: continue
        for bc in range(8):
            for bd in (-1, 0, 1):
                if not 0 <= bc + bd < 8: continue
                rows = [list("BBBBBBBB"), list("BBBBBBBB")] + [list("........") for _ in range(4)] + [list("WWWWWWWW"), list("WWWWWWWW")]
                rows[6][wc] = "."; rows[5][wc + wd] = "W"
                rows[1][bc] = "."; rows[2][bc + bd] = "B"
                positions.append(text(rows, "w"))
positions = positions[:70]
flood = [threading.Thread(target=lambda p=p: get(urllib.parse.urlencode({"board": "8x8", "position": p})))
         for p in positions]
for t in flood: t.start(); time.sleep(20 / 70)
time.sleep(5)
t0 = time.time(); asks = 0
while True:
    answer = get("board=4x4"); asks += 1
    if answer["winner"] or time.time() - t0 > 120: break
    time.sleep(1)
took = time.time() - t0
print(f"4x4 start after 70 8x8 requests: {took:.2f} s, {asks} asks, winner {answer['winner']}, "
      f"first busy/solving {answer['busy']}/{answer['solving']}")
server.terminate(); server.wait(timeout=120)
shutil.rmtree(store, ignore_errors=True)
