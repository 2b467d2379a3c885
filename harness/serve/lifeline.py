"""The service's helper processes end with it: the fork server and the case workers it forks
get SIGKILL when their parent ends (PR_SET_PDEATHSIG), so a `kill -9` of the service leaves
none of them running. start.py names this module as the fork server's preload; it acts only in
the fork server (a child of the service, whose pid the environment names) and in the workers
that server forks, never in the service itself nor in what a worker starts."""
import ctypes
import os
import signal

SERVICE = "HARNESS_SERVE_PID"  # the service's pid, set by start.py before the fork server starts
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when `parent` ends (at once if it already has)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(1)


def _in_fork_server() -> None:
    service = os.environ.get(SERVICE, "")
    if not service.isdigit() or os.getppid() != int(service):
        return
    server = os.getpid()
    die_with_parent(int(service))
    os.register_at_fork(after_in_child=lambda: os.getppid() == server and die_with_parent(server))


_in_fork_server()
