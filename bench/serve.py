"""The night before a deadline: a class uploads to `harness serve` at once. N uploads from M
concurrent clients (one student each, each waiting for its result before the next upload, as
one in flight per student asks), against a real server on this machine grading the fixture
game's samples (tests/fixture, HARNESS_ROOT), then `harness grade` of the same submissions.

Usage: python bench/serve.py [--uploads N] [--clients M] [--quick] [--abuse]

Prints: every upload graded exactly once (its row graded in one attempt, one result each),
none lost, the time to acknowledge an upload (p50/p95: stored and queued, before grading), the
wall time from the first upload to the last result, and that wall time against `harness grade`
of the same N submissions (ratio; target at most 1.2). `--quick`: 12 uploads from 4 clients.

`--abuse`: twenty students behave (each uploads, lists its submissions, follows each to its
result) twice: once on a calm service, once while it is attacked: 400 anonymous connections
each sending a 5 MB upload slowly, one student sending a refused 2,001-member zip from ten
clients again and again, and another holding 60 long polls (`?wait=30`; the refused ones asked
again each second, as Retry-After says). The attackers run until the well-behaved students are
done (in a process of their own), each loop bounded in count and time, on loopback only; the
service runs with its default rate (20 an hour, refused uploads counted).
Prints the well-behaved students' request times (p50, p95: their uploads' acknowledgements and
their listings) and upload-to-result times in each run, what the attackers were answered, and
the service's peak memory (RSS of it and its children). Targets: p50 and p95 within 1 s of the
calm run; peak memory within 150 MB of the calm run's.
"""
import argparse
import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from harness.serve.client import Client, multipart  # noqa: E402

FIXTURE = ROOT / "tests" / "fixture"
SAMPLES = ["correct", "bug-add", "bug-illegal", "bug-end", "variant-wording", "bug-crash"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=60)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="12 uploads from 4 clients")
    parser.add_argument("--abuse", action="store_true", help="twenty students, calm then under attack")
    args = parser.parse_args()
    if args.abuse:
        import serve_abuse  # bench/serve_abuse.py, beside this file

        return serve_abuse.main(2 if args.quick else 3)
    uploads, clients = (12, 4) if args.quick else (args.uploads, args.clients)
    env = dict(os.environ, HARNESS_ROOT=str(FIXTURE))
    work = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    try:
        tokens = {f"student{n:02d}": f"bench-token-{n:02d}-{os.urandom(8).hex()}" for n in range(clients)}
        (work / "roster.csv").write_text("student,token\n" + "".join(f"{s},{t}\n" for s, t in tokens.items()))
        # the class: each upload its own copy of a sample, named so no two are alike
        plan = []
        for n in range(uploads):
            sample = SAMPLES[n % len(SAMPLES)]
            folder = work / "class" / f"upload{n:03d}"
            folder.mkdir(parents=True)
            source = (FIXTURE / "examples" / "tally" / sample / "tally.py").read_text()
            (folder / "tally.py").write_text(source + f"\n# bench upload {n}\n")
            plan.append((list(tokens)[n % clients], folder))
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "harness.cli", "serve", "tally", "--roster",
                                   str(work / "roster.csv"), "--port", str(port), "--data", str(work / "data"),
                                   "--rate", "1000"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/health", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.1)
        acks, graded, lock = [], [], threading.Lock()

        def student(name: str) -> None:
            client = Client(url, tokens[name])
            for owner, folder in plan:
                if owner != name:
                    continue
                content_type, body = multipart({"game": "tally"}, [("tally.py", (folder / "tally.py").read_bytes())])
                sent = time.monotonic()
                accepted = client.call("/api/submissions", body, content_type)
                with lock:
                    acks.append(time.monotonic() - sent)
                while (state := client.call(accepted["url"] + "?wait=30"))["state"] != "done":
                    pass  # each request is answered when the state changes
                with lock:
                    graded.append(state["id"])

        started = time.monotonic()
        threads = [threading.Thread(target=student, args=(name,)) for name in tokens]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        served = time.monotonic() - started
        server.terminate()
        server.wait(30)
        db = sqlite3.connect(work / "data" / "serve.db")
        rows = db.execute("SELECT id, state, attempts FROM submissions").fetchall()
        results = list((work / "data" / "results").glob("*.json"))
        once = all(state == "done" and attempts == 1 for _, state, attempts in rows)
        ok = len(rows) == uploads and len(set(graded)) == uploads == len(graded) and len(results) == uploads and once
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "harness.cli", "grade", "tally", str(work / "class"), "-q", "--force",
                        "-o", str(work / "reports")], cwd=ROOT, env=env, check=False, capture_output=True)
        local = time.monotonic() - started
        quantiles = statistics.quantiles(acks, n=20) if len(acks) > 1 else acks * 19
        print(f"uploads: {uploads} from {clients} concurrent clients; accepted {len(rows)}, graded {len(set(graded))}, "
              f"results {len(results)}, each graded once: {'yes' if once else 'NO'}; lost: {uploads - len(set(graded))}")
        print(f"acknowledge: p50 {statistics.median(acks) * 1000:.0f} ms, p95 {quantiles[18] * 1000:.0f} ms")
        print(f"serve: {served:.1f} s for {uploads} ({uploads / served:.2f}/s); harness grade of the same: "
              f"{local:.1f} s; ratio {served / local:.2f} (target at most 1.2)")
        print("every upload graded exactly once, none lost" if ok else "SOME UPLOAD WAS LOST OR GRADED TWICE")
        return 0 if ok else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
