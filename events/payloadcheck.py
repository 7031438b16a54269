"""A quick check that a payload is valid under its marshmallow schema, for the common case.

Every event a command appends is validated against its type's schema first; marshmallow's validation
(it deserializes every field, builds error dictionaries, runs hooks) was a twentieth of a web move's
time. ``quick_check(schema)`` compiles a schema made of plain fields (integers, strings, booleans,
raw values, lists, dicts and nested schemas, with their validators) into a function that says
"valid" only where marshmallow would certainly agree: exact JSON types, no unknown or missing
required key, no null where none is allowed, every validator passed. Anything else (a string where
an integer is expected, which marshmallow may accept; a hook; a field of another kind) gets no quick
answer, and the registry asks marshmallow, which gives the verdict and the error messages as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields

Check = Callable[[Any], bool]


def quick_check(schema: Schema) -> Callable[[Mapping[str, Any]], bool] | None:
    """A function that is True only for payloads ``schema`` accepts; None where the schema is beyond it."""
    if any(schema._hooks.values()) or schema.unknown != RAISE:
        return None
    checks: dict[str, tuple[Check, bool]] = {}
    required: set[str] = set()
    for name, field in schema.load_fields.items():
        check = _field(field)
        if check is None or field.data_key not in (None, name):
            return None
        checks[name] = (check, field.allow_none)
        if field.required:
            required.add(name)
    if set(schema.dump_fields) - set(checks):
        return None  # a dump-only field is an unknown key on load: left to marshmallow

    def valid(payload: Mapping[str, Any]) -> bool:
        if type(payload) is not dict or not required <= payload.keys():
            return False
        for key, value in payload.items():
            entry = checks.get(key)
            if entry is None:
                return False
            if value is None:
                if not entry[1]:
                    return False
            elif not entry[0](value):
                return False
        return True

    return valid


def _field(field: fields.Field[Any]) -> Check | None:
    """The check of one field's value (not None), or None where only marshmallow can tell."""
    if getattr(field, "pre_load", None) or getattr(field, "post_load", None):
        return None
    kind = type(field)
    check: Check | None
    if kind is fields.Integer:
        check = _is_int
    elif kind is fields.String:
        check = _is_str
    elif kind is fields.Boolean:
        check = _is_bool
    elif kind is fields.Raw:
        check = _anything
    elif kind is fields.List:
        check = _items(field.inner)  # type: ignore[attr-defined]
    elif kind is fields.Dict:
        check = _mapping(field.key_field, field.value_field)  # type: ignore[attr-defined]
    elif kind is fields.Nested:
        check = _nested(field)  # type: ignore[arg-type]
    else:
        check = None
    if check is None or not field.validators:
        return check
    return _validated(check, tuple(field.validators))


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_str(value: Any) -> bool:
    return type(value) is str


def _is_bool(value: Any) -> bool:
    return type(value) is bool


def _anything(value: Any) -> bool:
    return True


def _each(field: fields.Field[Any] | None) -> Check | None:
    """The check of an item or a key or value of a container, None included where allowed."""
    if field is None:
        return _anything
    inner = _field(field)
    if inner is None:
        return None
    allow_none = field.allow_none
    return lambda value: (allow_none if value is None else inner(value))


def _items(inner: fields.Field[Any]) -> Check | None:
    each = _each(inner)
    if each is None:
        return None
    return lambda value: type(value) in (list, tuple) and all(each(v) for v in value)


def _mapping(keys: fields.Field[Any] | None, values: fields.Field[Any] | None) -> Check | None:
    key, item = _each(keys), _each(values)
    if key is None or item is None:
        return None
    return lambda value: type(value) is dict and all(key(k) and item(v) for k, v in value.items())


def _nested(field: fields.Nested) -> Check | None:
    if getattr(field, "unknown", None) is not None:
        return None
    schema = field.schema
    valid = quick_check(schema) if isinstance(schema, Schema) else None
    if valid is None or getattr(schema, "only", None) or getattr(schema, "exclude", None):
        return None
    if field.many:
        return lambda value: type(value) in (list, tuple) and all(valid(v) for v in value)
    return valid


def _validated(check: Check, validators: tuple[Callable[[Any], Any], ...]) -> Check:
    def valid(value: Any) -> bool:
        if not check(value):
            return False
        try:
            for validator in validators:
                if validator(value) is False:
                    return False
        except ValidationError:
            return False
        return True
    return valid
