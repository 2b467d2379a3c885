"""The reference played by a person: pexpect's interact() between this terminal and the game's.

The game runs on a pty of its own (`pexpect.spawn`), as large as this terminal and resized
with it. This terminal is raw while the game plays, so each key goes to the game's terminal,
which echoes it and edits the line as any terminal does (Ctrl-D at the start of a line ends the
game's input). Ctrl-C, this terminal's interrupt key, is the harness's: it raises
KeyboardInterrupt (the command says `harness: interrupted`), and the game is killed, never
left behind. All the game printed is shown, what it wrote just before it ended too.

Input that is not a terminal (a file, a pipe) has no keys to pass on: the game reads it itself.
"""
import os
import shutil
import signal
import subprocess
import sys
import termios

import pexpect

_DISABLED = b"\0"  # a control character set to this is switched off (_POSIX_VDISABLE)


def play(command: list[str], env: dict) -> int:
    """Play `command` in this terminal; 0 when it exits with 0, else 1."""
    if not os.isatty(sys.stdin.fileno()):
        return _from_input(command, env)
    interrupt = termios.tcgetattr(sys.stdin.fileno())[6][termios.VINTR]
    game = pexpect.spawn(command[0], command[1:], env=env, timeout=None, echo=True, dimensions=_size())
    game.delaybeforesend = None
    game.ptyproc.delayafterclose = 0  # closed only once it is reaped
    previous = signal.signal(signal.SIGWINCH, lambda *_: game.closed or game.setwinsize(*_size()))
    try:
        sys.stdout.flush()
        game.interact(escape_character=None, input_filter=_stopped_by(interrupt))
        _show_the_rest(game)
        game.wait()  # ended, or its terminal closed: this terminal is itself again, Ctrl-C the harness's
        return 0 if game.exitstatus == 0 else 1
    finally:
        signal.signal(signal.SIGWINCH, previous)
        if game.isalive():  # interrupted: the game goes too
            os.kill(game.pid, signal.SIGKILL)
            game.wait()
        game.close()


def _size() -> tuple[int, int]:
    """This terminal's rows and columns (80 × 24 where it does not say)."""
    columns, rows = shutil.get_terminal_size()
    return rows, columns


def _stopped_by(interrupt):
    """interact()'s input filter: the keys pass to the game, but Ctrl-C stops the harness."""
    def keys(data: bytes) -> bytes:
        if interrupt != _DISABLED and interrupt in data:
            raise KeyboardInterrupt
        return data
    return keys


def _show_the_rest(game) -> None:
    """What the game wrote before it ended, still in its pty when interact() saw it gone."""
    while True:
        try:
            data = game.read_nonblocking(65536, timeout=0)
        except (pexpect.EOF, pexpect.TIMEOUT, OSError):
            break
        os.write(sys.stdout.fileno(), data)


def _from_input(command: list[str], env: dict) -> int:
    """The game reading this input itself. It starts with Ctrl-C ignored (Python keeps an
    inherited SIG_IGN), so only the harness answers it: the game is killed and one line said."""
    child = None
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        child = subprocess.Popen(command, env=env)
        signal.signal(signal.SIGINT, previous)
        return 0 if child.wait() == 0 else 1
    finally:
        signal.signal(signal.SIGINT, previous)
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
