#!/usr/bin/env python3
"""Soak of `engram serve`: mixed traffic with malformed requests mixed in, for --seconds.

  bench/soak.py BUILD/engram [--seconds 600] [--threads 8]

70 % recalls, 20 % event writes (each acknowledged id recorded), 10 % malformed requests (invalid
JSON, an unknown field, a wrong type, a body over the limit, a wrong method, an unknown route).
Samples the server's RSS every 10 s. Afterwards every acknowledged event is read back. Prints one
JSON object; exits 1 on a 5xx, an unexpected status, a lost write or RSS growth over 20 % after
the first minute.
"""
import argparse, http.client, json, os, random, signal, subprocess, sys, tempfile, threading, time

MALFORMED = [
    ("POST", "/v1/namespaces/soak/recall", "{\"query\":", 400),
    ("POST", "/v1/namespaces/soak/recall", "{\"query\":\"x\",\"colour\":1}", 400),
    ("POST", "/v1/namespaces/soak/recall", "{\"query\":\"x\",\"limit\":\"ten\"}", 400),
    ("POST", "/v1/namespaces/soak/events", "{\"content\":\"" + "x" * 70000 + "\"}", 413),
    ("DELETE", "/v1/namespaces/soak/recall", "", 405),
    ("GET", "/v1/no/such/route", "", 404),
]


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engram")
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--threads", type=int, default=8)
    a = ap.parse_args()
    work = tempfile.mkdtemp()
    db = os.path.join(work, "soak.db")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    env["ENGRAM_MAX_BODY_BYTES"] = "65536"
    subprocess.run([a.engram, "--db", db, "remember", "--namespace", "soak", "I live in Hangzhou."],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    port_file = os.path.join(work, "port")
    server = subprocess.Popen([a.engram, "--db", db, "serve", "--listen", "127.0.0.1:0", "--port-file", port_file,
                               "--quiet"], env=env, stderr=open(os.path.join(work, "serve.log"), "w"))
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().endswith("\n"):
            break
        time.sleep(0.05)
    port = int(open(port_file).read())
    lock = threading.Lock()
    acked, statuses, unexpected = [], {}, []
    stop = time.time() + a.seconds

    def worker(tag):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n = 0
        while time.time() < stop:
            n += 1
            r = random.random()
            if r < 0.7:
                req = ("POST", "/v1/namespaces/soak/recall", json.dumps({"query": random.choice(
                    ["where do I live", "desk room", "what did I move"])}), 200)
            elif r < 0.9:
                req = ("POST", "/v1/namespaces/soak/events", json.dumps(
                    {"session_id": f"s{tag}", "role": "user", "content": f"soak {tag} {n}: desk in room {n % 97}"}), 201)
            else:
                req = random.choice(MALFORMED)
            method, path, body, want = req
            try:
                conn.request(method, path, body=body.encode(), headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                data = resp.read()
            except Exception as e:  # a connection the server closed: reconnect
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                if want != 413:
                    with lock:
                        unexpected.append(f"{method} {path}: {e}")
                continue
            if resp.status == 413 or resp.getheader("Connection", "").lower() == "close":
                conn.close()  # the server does not read the rest of a refused body
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            with lock:
                statuses[resp.status] = statuses.get(resp.status, 0) + 1
                if resp.status != want:
                    unexpected.append(f"{method} {path}: {resp.status} (want {want})")
                if resp.status == 201:
                    acked.append(json.loads(data)["event"]["id"])

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(a.threads)]
    for t in threads:
        t.start()
    samples = []
    while time.time() < stop:
        samples.append(rss_kb(server.pid))
        time.sleep(min(10, max(0.1, stop - time.time())))
    for t in threads:
        t.join()
    samples.append(rss_kb(server.pid))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    lost = 0
    for event_id in acked:
        conn.request("GET", f"/v1/namespaces/soak/events/{event_id}")
        resp = conn.getresponse()
        resp.read()
        lost += resp.status != 200
    server.send_signal(signal.SIGTERM)
    code = server.wait(timeout=60)
    baseline = samples[min(6, len(samples) - 1)]
    growth = (samples[-1] - baseline) / baseline if baseline else 0
    out = {"seconds": a.seconds, "threads": a.threads, "statuses": statuses, "acked_writes": len(acked),
           "lost_writes": lost, "unexpected": unexpected[:10], "unexpected_count": len(unexpected),
           "rss_kb_samples": samples, "rss_growth_after_1min": round(growth, 3), "exit_code": code}
    print(json.dumps(out))
    ok = lost == 0 and not unexpected and code == 0 and growth < 0.2 and not any(s >= 500 for s in statuses)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
