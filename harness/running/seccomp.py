"""The seccomp filter every sandboxed program runs under: no call that lets one run see another.

Runs of a submission share read-only files (the system's, /dev/null, the JVM's class-data
archive): a read-only file can still carry a lock (`fcntl` F_SETLK / F_GETLK, OFD locks,
`flock`), and an inotify, fanotify or dnotify watch on it sees another run open or read it.
Either is a channel from a hidden case's run to a public one. Kernel keyrings are another
(shared by uid where user namespaces map every run to one). So are the kernel's machine-wide
counts and caches: AIO contexts (`io_setup` adds to /proc/sys/fs/aio-nr, which another run can
read), io_uring instances, and the page cache of the files every run reads, which a run can
fill or empty in proportion to its inputs and a later one read back: what says which pages
are in it (`mincore`, `cachestat`, `preadv2` with RWF_NOWAIT) and what drops a file's pages
from it (`posix_fadvise`'s DONTNEED). The filter makes these calls fail (locks with ENOLCK;
watches, leases and keyrings with EPERM; AIO, io_uring and the page-cache calls with ENOSYS, as
on a kernel without them: a library that tries them does plain reads and writes instead, and
advice is only advice)
and leaves everything else alone; a program of a course game needs none of them. Calls of
another ABI than the machine's own (32-bit `int 0x80`, x32) would dodge a filter keyed on
numbers, so they kill the process.

The filter is classic BPF over `struct seccomp_data`; `program()` is None on an architecture
this module has no numbers for. The launcher (`harness.running.launcher`) installs it in a
run's process just before that process executes its command (bubblewrap and setpriv, then the
program, all run under it); the calls it refuses are none of theirs.
"""
import ctypes
import os
import platform
import struct

_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
# fcntl, then the calls refused outright: flock, inotify_init, inotify_init1, fanotify_init,
# add_key, request_key, keyctl (aarch64 has no inotify_init)
_FCNTL = {"x86_64": 72, "aarch64": 25}
_LOCKS = {"x86_64": (73,), "aarch64": (32,)}
_REFUSED = {"x86_64": (253, 294, 300, 248, 249, 250), "aarch64": (26, 262, 217, 218, 219)}
# answered "no such call": io_setup, io_uring_setup, mincore, preadv2, cachestat, fadvise64
_ABSENT = {"x86_64": (206, 425, 27, 327, 451, 221), "aarch64": (0, 425, 232, 286, 451, 223)}
_X32_BIT = 0x40000000
# fcntl commands: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW (locks);
# F_SETLEASE, F_GETLEASE, F_NOTIFY (leases and dnotify)
_LOCK_COMMANDS = (5, 6, 7, 36, 37, 38)
_WATCH_COMMANDS = (1024, 1025, 1026)
_ENOLCK, _EPERM, _ENOSYS = 37, 1, 38

_LD_W_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ALLOW, _KILL_PROCESS, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_NR, _ARCH, _ARG1 = 0, 4, 24  # offsets in struct seccomp_data (args[1]'s low word: little-endian)


def program(machine: str | None = None) -> bytes | None:
    """The filter as bytes of `struct sock_filter`, for this machine (or `machine`)."""
    machine = machine or platform.machine()
    if machine not in _AUDIT_ARCH:
        return None
    code: list[tuple[int, str | int, str | int, int]] = []  # (op, jump if true, jump if false, k)

    def op(kind: int, k: int, yes: str | int = 0, no: str | int = 0) -> None:
        code.append((kind, yes, no, k))

    op(_LD_W_ABS, _ARCH)
    op(_JEQ, _AUDIT_ARCH[machine], 0, "kill")
    op(_LD_W_ABS, _NR)
    if machine == "x86_64":
        op(_JGE, _X32_BIT, "kill", 0)
    for number in _LOCKS[machine]:
        op(_JEQ, number, "lock", 0)
    for number in _REFUSED[machine]:
        op(_JEQ, number, "refuse", 0)
    for number in _ABSENT[machine]:
        op(_JEQ, number, "absent", 0)
    op(_JEQ, _FCNTL[machine], 0, "allow")
    op(_LD_W_ABS, _ARG1)
    for command in _LOCK_COMMANDS:
        op(_JEQ, command, "lock", 0)
    for command in _WATCH_COMMANDS:
        op(_JEQ, command, "refuse", 0)
    labels = {}
    for name, value in (("allow", _ALLOW), ("lock", _ERRNO | _ENOLCK), ("refuse", _ERRNO | _EPERM),
                        ("absent", _ERRNO | _ENOSYS), ("kill", _KILL_PROCESS)):
        labels[name] = len(code)
        op(_RET, value)

    def offset(target: str | int, at: int) -> int:
        return labels[target] - at - 1 if isinstance(target, str) else target

    return b"".join(struct.pack("=HBBI", kind, offset(yes, at), offset(no, at), k)
                    for at, (kind, yes, no, k) in enumerate(code))


_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(code: bytes, libc: ctypes.CDLL) -> None:
    """Load `code` as the calling process's filter (kept across exec, by every child too), with
    no_new_privs, which an unprivileged process needs for it. Raises OSError if the kernel refuses."""
    held = ctypes.create_string_buffer(code, len(code))
    program = _Program(len(code) // 8, ctypes.cast(held, ctypes.c_void_p))
    for request, args in ((_PR_SET_NO_NEW_PRIVS, (1, 0, 0, 0)),
                          (_PR_SET_SECCOMP, (_SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0))):
        if libc.prctl(request, *args) != 0:
            number = ctypes.get_errno()
            raise OSError(number, f"the seccomp filter could not be loaded: {os.strerror(number)}")
