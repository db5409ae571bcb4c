"""Rule options: one frozen dataclass per game, read from text or values, checked with clear errors.

Each field of a game's options dataclass carries ``metadata={"doc": ..., "choices": ...}``; the
dataclass's ``__post_init__`` checks combinations and fills defaults that depend on the player
count or on another option. This module turns ``key=value`` text (the CLI, TOML files) into typed
values and describes the options for ``arena games``.

- **Presets.** An options class may name one field as its preset (``PRESET_FIELD = "variant"``)
  and map each preset's name to option values (``PRESETS``). Choosing a preset sets those values;
  options given explicitly override them. The record keeps every resolved value.
- **Values with a syntax of their own** (a list, say) give ``metadata["parse"]``: a function from
  the raw value (text from the CLI, or a TOML value) to the typed value that raises ``ValueError``
  with a message, and ``metadata["syntax"]``: how to write it, shown in errors and ``arena games``.
"""
from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from typing import Any

from arena.errors import OptionError


def option_fields(options_cls: type) -> list[dataclasses.Field[Any]]:
    """The fields of an options dataclass that a user may set."""
    return [f for f in dataclasses.fields(options_cls) if f.init]


def field_doc(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata.get("doc", ""))


def field_choices(f: dataclasses.Field[Any]) -> tuple[Any, ...] | None:
    return f.metadata.get("choices")


def _field_type(options_cls: type, f: dataclasses.Field[Any]) -> Any:
    return _type_hints(options_cls)[f.name]


@functools.cache
def _type_hints(options_cls: type) -> dict[str, Any]:
    """The class's resolved annotations, worked out once: every match of a tournament makes its
    options from the same values, and resolving the annotations' text each time cost more than
    the rest of making them."""
    return typing.get_type_hints(options_cls)


def _base_types(tp: Any) -> tuple[type, ...]:
    """The concrete types allowed by a hint such as ``int | None`` or ``bool``."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return tuple(a for a in args if a is not type(None))
    return (tp,)


def _allows_none(tp: Any) -> bool:
    return type(None) in typing.get_args(tp)


def parse_scalar(raw: Any, base: type) -> Any:
    """A raw value (text from the CLI, or a TOML value) as ``bool``, ``int`` or ``str``.

    Raises ``ValueError`` when it is not one; callers say which option or limit was wrong.
    """
    if base is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in ("true", "yes", "on", "1"):
            return True
        if isinstance(raw, str) and raw.strip().lower() in ("false", "no", "off", "0"):
            return False
    elif base is int:
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if isinstance(raw, str):
            return int(raw.strip())  # raises ValueError for text that is not a whole number
    elif base is str and isinstance(raw, str):
        return raw
    raise ValueError(f"{raw!r} is not a {base.__name__}")


def _coerce(name: str, raw: Any, tp: Any) -> Any:
    """Turn one raw value (text from the CLI or a TOML value) into the field's type."""
    if raw is None or (isinstance(raw, str) and raw.lower() in ("none", "default", "")):
        if _allows_none(tp):
            return None
        if raw == "" and str in _base_types(tp):
            return ""  # an empty text is a text (OpenSpiel's file names and positions default to it)
        raise OptionError(f"option {name!r} needs a value")
    for base in _base_types(tp):
        try:
            return parse_scalar(raw, base)
        except ValueError:
            continue
    wanted = " or ".join(b.__name__ for b in _base_types(tp))
    raise OptionError(f"option {name!r}: {raw!r} is not a valid {wanted}")


def build_options(options_cls: type, values: Mapping[str, Any], fixed: Mapping[str, Any] = {}) -> Any:
    """Make an options object from a mapping of names to user values (text or typed).

    ``fixed`` holds values the user does not choose directly (the number of players comes from
    the number of bots). Unknown names and bad values raise :class:`OptionError` naming the option
    and what is allowed.
    """
    fields = {f.name: f for f in option_fields(options_cls) if f.name not in fixed}
    for name in values:
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise OptionError(f"unknown option {name!r}; this game's options are: {known}")
    kwargs: dict[str, Any] = dict(fixed)
    preset_field = getattr(options_cls, "PRESET_FIELD", None)
    if preset_field is not None and preset_field in values:
        f = fields[preset_field]
        preset = _coerce(preset_field, values[preset_field], _field_type(options_cls, f))
        check_choice(f, preset)
        kwargs[preset_field] = preset
        presets: dict[str, dict[str, Any]] = getattr(options_cls, "PRESETS", {})
        for name, value in presets.get(preset, {}).items():
            kwargs.setdefault(name, value)  # fixed values stay fixed
    for name, raw in values.items():
        if name == preset_field:
            continue
        f = fields[name]
        parse = f.metadata.get("parse")
        choices = field_choices(f) or ()
        if isinstance(raw, str) and raw in choices:
            value = raw  # a declared choice is itself, even one named "none"
        elif parse is not None and raw is not None:  # the field's own syntax, "none" included
            try:
                value = raw if _is_parsed(raw) else parse(raw)
            except (ValueError, TypeError) as exc:
                syntax = f.metadata.get("syntax", "")
                raise OptionError(f"option {name!r}: {raw!r} is not valid ({exc})"
                                  + (f"; write it as {syntax}" if syntax else "")) from None
        else:
            value = _coerce(name, raw, _field_type(options_cls, f))
        check_choice(f, value)
        kwargs[name] = value
    return options_cls(**kwargs)


def check_typed_values(options_cls: type, values: Mapping[str, Any]) -> None:
    """Values from a typed file (a tournament's TOML): a string stands only for a text field's
    value, a declared choice, a field with a syntax of its own, or the default of a field that
    has one ('none', 'default'). ``target = "100"`` is an error there, though ``-o target=100``
    is the command line's text."""
    fields = {f.name: f for f in option_fields(options_cls)}
    for name, raw in values.items():
        f = fields.get(name)
        if f is None or not isinstance(raw, str) or f.metadata.get("parse") is not None:
            continue
        tp = _field_type(options_cls, f)
        bases = _base_types(tp)
        if str in bases or raw in (field_choices(f) or ()):
            continue
        if _allows_none(tp) and raw.lower() in ("none", "default"):
            continue
        words = {bool: "true or false", int: "an integer", float: "a number"}
        wanted = " or ".join(words.get(b, f"a {b.__name__}") for b in bases)
        raise OptionError(f"option {name!r} must be {wanted}, got the string {raw!r} "
                          "(write it without quotes)")


def _is_parsed(raw: Any) -> bool:
    """A tuple is an already typed value (from a record or ``options_to_dict``), not user input."""
    return isinstance(raw, tuple)


def check_choice(f: dataclasses.Field[Any], value: Any) -> None:
    """Raise if a value is outside a field's declared choices."""
    choices = field_choices(f)
    if choices is not None and value is not None and value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise OptionError(f"option {f.name!r}: {value!r} is not allowed; allowed values: {allowed}")


def check_all_choices(options: Any) -> None:
    """Check every field of an options object against its choices (for ``__post_init__``)."""
    for f in option_fields(type(options)):
        check_choice(f, getattr(options, f.name))


def options_to_dict(options: Any) -> dict[str, Any]:
    """The options as plain values, for the wire, the match record and the store (tuples become
    lists, as MessagePack and JSON carry them)."""
    return {f.name: _plain(getattr(options, f.name)) for f in dataclasses.fields(options)}


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def parse_assignments(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Parse ``["target=61", "first_leader=lottery"]`` into a mapping; complain about bad forms."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {item!r} is not of the form key=value")
        out[key.strip()] = value.strip()
    return out


def options_from_dict(game: Any, data: dict[str, Any]) -> Any:
    """The options object of ``game`` from a record's, a hello's or the store's resolved values
    (a preset named there sets nothing that the other values do not set again)."""
    values = {k: v for k, v in data.items() if k != "num_players" and v is not None}
    return game.make_options(int(data["num_players"]), values)
