"""Limits hold for a whole process tree; without the sandbox grading refuses unless told."""
import os
import subprocess

import pytest

from harness.building import build as builder
from harness.running import cgroups
from harness.running import sandbox
from harness.errors import InputError
from harness.running.limits import run_contained
from tests.helpers import processes_with

GROUPS = pytest.mark.skipif(cgroups.mechanism() == "rlimits",
                            reason="no control group can be made here: whole-tree limits not in force")
TREE = cgroups.TreeLimits(256 << 20, 32)


def test_at_the_build_time_limit_the_whole_tree_is_killed(tmp_path):
    marker = "4242.125"  # a sleep nobody else runs
    script = f"sleep {marker} & (setsid sleep {marker} &); sleep {marker}"
    with pytest.raises(subprocess.TimeoutExpired):
        builder.run_step(["sh", "-c", script], cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, timeout=1)
    assert processes_with(marker) == []


def test_a_build_step_that_ends_leaves_nothing_behind(tmp_path):
    marker = "4343.125"
    done = builder.run_step(["sh", "-c", f"(setsid sleep {marker} &); echo built"], cwd=str(tmp_path),
                            env={"PATH": "/usr/bin:/bin"}, timeout=30)
    assert done.returncode == 0 and b"built" in done.stdout
    assert processes_with(marker) == []


@GROUPS
def test_processes_are_bounded_for_the_tree(tmp_path):
    script = "for i in $(seq 100); do sleep 2 & done 2>/dev/null; echo started; wait"
    done = run_contained(["sh", "-c", script], cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, seconds=30, tree=TREE)
    assert f"the limit of {TREE.tasks} processes and threads was reached" in done.limits_hit


@GROUPS
def test_memory_is_bounded_for_the_tree_not_per_process(tmp_path):
    child = "python3 -c 'import time; b = bytearray(b\"x\") * (100 << 20); time.sleep(1)'"
    script = f"for i in 1 2 3 4; do {child} & done; wait; echo done"
    done = run_contained(["sh", "-c", script], cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, seconds=60, tree=TREE)
    assert "the memory limit (256 MiB for all its processes together) was reached" in done.limits_hit


def test_a_flood_of_compiler_output_is_cut_in_the_middle(tmp_path):
    done = run_contained(["sh", "-c", "echo first; yes error | head -c 5000000; echo; echo last"], cwd=str(tmp_path),
                         env={"PATH": "/usr/bin:/bin"}, seconds=30, tree=TREE, output_bytes=10000)
    assert done.output.startswith("first") and done.output.rstrip().endswith("last")
    assert "bytes cut]" in done.output and len(done.output) < 10200


def test_without_bubblewrap_grading_refuses_unless_told(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    sandbox.works.cache_clear()
    try:
        assert not sandbox.available("auto") and sandbox.mode("auto") == "none"
        with pytest.raises(InputError) as refused:
            sandbox.require(allow_unconfined=False, setting="auto")
        assert str(refused.value) == ("bubblewrap is not installed: install it (apt-get install bubblewrap) "
                                      "or pass --no-sandbox to run submissions unconfined")
        sandbox.require(allow_unconfined=True, setting="auto")
        sandbox.require(allow_unconfined=False, setting="off")  # HARNESS_SANDBOX=off, as a front door read it
    finally:
        monkeypatch.undo()
        sandbox.works.cache_clear()


@GROUPS
def test_groups_left_by_a_killed_grading_are_swept_and_no_other():
    ended = subprocess.Popen(["true"])
    ended.wait()  # its pid names a group no process can be in any more
    living = subprocess.Popen(["sleep", "30"])
    stale, alive = cgroups.name_for(ended.pid), cgroups.name_for(living.pid)
    try:
        for place in cgroups.places():
            os.makedirs(place.group(stale), exist_ok=True)
            os.makedirs(place.group(alive), exist_ok=True)
        cgroups.sweep()
        for place in cgroups.places():
            assert not os.path.isdir(place.group(stale))
            assert os.path.isdir(place.group(alive))  # its process may be about to join it
    finally:
        living.kill()
        living.wait()
        cgroups.finish(alive)
