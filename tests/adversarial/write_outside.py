# Writes wherever it can: the project, the host's /tmp, its own build, other submissions' builds.
import glob, json, os
targets = (json.loads('@PATHS@') + [os.path.abspath(__file__)] + glob.glob("/tmp/harness-build-*/*")
           + glob.glob("/tmp/harness-build-*/*/*"))
for path in targets:
    try:
        with open(path, "a") as f:
            f.write("@TOKEN@ was here\n")
        print(f"WROTE {path}", flush=True)
    except OSError as problem:
        print(f"refused {path}: {problem.strerror}", flush=True)
opening()
input()
