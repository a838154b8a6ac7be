"""A steady multi-threaded workload for a large dynamic program (CPython): producer
threads encode records as JSON and hand them through queues to consumers that decode,
check and count them. Prints the items per second it reached."""
import json
import queue
import sys
import threading
import time

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
q = queue.Queue(maxsize=64)
done = threading.Event()
counts = [0, 0, 0, 0]


def produce(k):
    n = 0
    while not done.is_set():
        q.put(json.dumps({"k": k, "n": n, "tags": ["a", "b", str(n % 7)], "v": n * 1.5}))
        n += 1


def consume(k):
    while True:
        item = q.get()
        if item is None:
            return
        rec = json.loads(item)
        assert rec["v"] == rec["n"] * 1.5
        counts[k] += 1


consumers = [threading.Thread(target=consume, args=(k,)) for k in range(4)]
producers = [threading.Thread(target=produce, args=(k,)) for k in range(2)]
for t in consumers + producers:
    t.start()
start = time.monotonic()
time.sleep(SECONDS)
done.set()
for t in producers:
    t.join()
for _ in consumers:
    q.put(None)
for t in consumers:
    t.join()
print(f"pyload: {sum(counts) / (time.monotonic() - start):.0f} items/s")
