"""Scheduler addresses and the reasons a worker is refused, without a cluster."""
from __future__ import annotations

import pytest

from arena.errors import ArenaError
from tournaments.cluster import BundleError, check_address, code_fingerprint, describe_refusal


@pytest.mark.parametrize("address, parts", [
    ("tcp://10.0.0.7:8786", ("tcp", "10.0.0.7", 8786)),
    ("  tcp://host:9000 ", ("tcp", "host", 9000)),
    ("host:9000", ("tcp", "host", 9000)),
    ("host", ("tcp", "host", 8786)),
    ("tls://sched.example.org:8786", ("tls", "sched.example.org", 8786)),
    ("tcp://[::1]:8786", ("tcp", "::1", 8786)),
])
def test_good_addresses(address: str, parts: tuple[str, str, int]) -> None:
    assert check_address(address) == parts


@pytest.mark.parametrize("address, message", [
    ("", "the Dask scheduler address is empty"),
    ("   ", "the Dask scheduler address is empty"),
    ("http://host:8787", "must start with tcp:// or tls://, not http://"),
    ("ucx://host:8786", "not ucx://"),
    ("tcp://host:port", "the port 'port' is not a number from 1 to 65535"),
    ("tcp://host:0", "the port '0' is not a number"),
    ("tcp://host:70000", "the port '70000' is not a number"),
    ("tcp://:8786", "expected tcp://HOST:PORT"),
    ("tcp://host:8786/path", "expected tcp://HOST:PORT"),
])
def test_bad_addresses_are_one_line(address: str, message: str) -> None:
    with pytest.raises(ArenaError, match=message) as caught:
        check_address(address)
    assert "\n" not in str(caught.value)


def test_why_a_worker_is_refused() -> None:
    other = describe_refusal({"arena": "0.1.0", "fingerprint": "f" * 64})
    assert other == (f"it runs other arena code (fingerprint ffffffffffff, this is "
                     f"{code_fingerprint()[:12]}; arena 0.1.0); install this arena there")
    assert "does not report its code's fingerprint" in describe_refusal({"arena": "0.1.0"})
    missing = describe_refusal(ModuleNotFoundError("No module named 'tournaments'"))
    assert missing == ("it cannot run arena's check (ModuleNotFoundError: No module named "
                       "'tournaments'; is arena installed there?)")
    assert describe_refusal(BundleError("the bot cache folder /x is bad\nmore")) == \
        "the bot cache folder /x is bad"
    assert describe_refusal(TimeoutError("it did not answer arena's check in 10 s")) == \
        "it did not answer arena's check in 10 s"


def test_the_fingerprint_is_of_the_code_not_the_version() -> None:
    assert len(code_fingerprint()) == 64 and code_fingerprint() == code_fingerprint()
