# Looks for the cases anywhere it can: named paths, then every .yaml on the machine outside the
# system's own folders; prints what it read.
import json
named = json.loads('@PATHS@')
found = 0
def try_read(path):
    global found
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError as problem:
        if path in named:
            print(f"hidden {path}: {problem.strerror}", flush=True)
        return
    if b"@SECRET@" in data or path in named:
        found += len(data)
        print(f"LEAK {path} {len(data)}", flush=True)
for path in named:
    try_read(path)
for top in ("/",):
    for parent, folders, files in os.walk(top):
        folders[:] = [f for f in folders if os.path.join(parent, f) not in ("/proc", "/sys", "/dev", "/usr")]
        for name in files:
            if name.endswith((".yaml", ".yml")) or "shadow" in name:
                try_read(os.path.join(parent, name))
print(f"read {found} bytes; uid {os.getuid()}", flush=True)
opening()
input()
