# Kills its parent, then every process it may signal.
import signal
for target in (os.getppid(), 1):
    try:
        os.kill(target, signal.SIGKILL)
        print(f"killed {target}", flush=True)
    except OSError as problem:
        print(f"could not kill {target}: {problem.strerror}", flush=True)
try:
    os.kill(-1, signal.SIGKILL)
    print("signalled every process it may", flush=True)
except OSError as problem:
    print(f"could not kill -1: {problem.strerror}", flush=True)
print("still here", flush=True)
opening()
input()
