"""The wire between the referee and a bot: framing, messages, and the Python bot SDK.

See ``protocol/SPEC.md`` for the contract a bot author in any language follows.
"""
from protocol.wire import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
