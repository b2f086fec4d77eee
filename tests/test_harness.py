"""The harness reports each snippet's real exit status, however snippets start and end across threads.

Reproduction of a flaky run: under load, `make test` once failed with `snippets/errors/06_gradient_is_none.py
exited with 255` although the snippet's stdout was complete. 255 is what multiprocessing's fork-server Popen
reports when it reads EOF instead of the child's exit status: another thread had read the status first (see
the comment on ``_children_lock`` in tests/harness.py). Stressing the fork server (4 threads starting
hundreds of children that exit at once, on a loaded machine) loses about one status in a hundred; the test
below makes the same interleaving happen every time instead of now and then:

1. a thread launches a child that exits with 3; once the child's status is waiting in its pipe, that
   thread's read of it is held up (as a busy machine holds a thread up between "readable" and the read);
2. meanwhile the main thread launches another child, and ``Process.start()`` polls every unfinished child;
3. without the harness's lock the main thread reads the first child's status, the first thread then reads
   EOF, and the first child is reported as 255.
"""

from __future__ import annotations

import threading
import time
from multiprocessing import forkserver

from tests import harness

HOLD_SECONDS = 2.0


def test_a_child_exit_status_is_not_lost_when_another_child_starts(monkeypatch):
    real_read = forkserver.read_signed
    reads_in_first_thread = 0
    status_waiting = threading.Event()

    def read(fd: int) -> int:
        nonlocal reads_in_first_thread
        if threading.current_thread().name == "first":
            reads_in_first_thread += 1
            if reads_in_first_thread >= 2:  # the first read is the child's pid; then comes its exit status
                status_waiting.set()
                time.sleep(HOLD_SECONDS)
        return real_read(fd)

    monkeypatch.setattr(forkserver, "read_signed", read)
    first: list[tuple[int, bool]] = []
    thread = threading.Thread(name="first", target=lambda: first.append(harness.launch(harness._exit_with, (3,), 120)))
    thread.start()
    assert status_waiting.wait(120), "the first child's exit status never arrived"
    second = harness.launch(harness._exit_with, (4,), 120)
    thread.join()
    assert first == [(3, True)], f"the first child exited with 3 but was reported as {first} (255: its status was lost)"
    assert second == (4, True), f"the second child exited with 4 but was reported as {second}"


def test_a_child_that_outlives_its_timeout_is_killed_and_said_so():
    code, finished = harness.launch(time.sleep, (30,), timeout=0.5)
    assert not finished and code != 0, f"a child sleeping past its timeout came back as ({code}, finished={finished})"
