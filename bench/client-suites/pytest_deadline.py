"""A deadline for each test of a client's own suite run against a daemon that may hang: SIGALRM after 180 s."""
import signal

import pytest


def _expired(signum, frame):
    raise TimeoutError('the test took longer than 180 s')


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    signal.signal(signal.SIGALRM, _expired)
    signal.alarm(180)
    try:
        yield
    finally:
        signal.alarm(0)
