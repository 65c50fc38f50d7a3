"""The MINDIR message classes, built at import from the vendored schema `mind_ir.proto` (no
protoc, no generated code): a small reader of the proto2 subset the schema uses (messages,
nested messages and enums, optional/repeated/required scalar, enum and message fields)."""

import os
import re

from google.protobuf import descriptor_pb2, descriptor_pool

__all__ = ["messages", "SCHEMA"]

SCHEMA = os.path.join(os.path.dirname(__file__), "mind_ir.proto")

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {name: getattr(_F, "TYPE_" + name.upper()) for name in (
    "double", "float", "int64", "uint64", "int32", "fixed64", "fixed32", "bool", "string",
    "bytes", "uint32", "sfixed32", "sfixed64", "sint32", "sint64")}
_LABELS = {"optional": _F.LABEL_OPTIONAL, "repeated": _F.LABEL_REPEATED,
           "required": _F.LABEL_REQUIRED}
_TOKEN = re.compile(r'"[^"]*"|[A-Za-z_][\w.]*|-?\d+|[{}=;\[\]]')


def _parse(text):
    tokens = _TOKEN.findall(re.sub(r"//[^\n]*", "", text))
    fd = descriptor_pb2.FileDescriptorProto(name="mind_ir.proto", syntax="proto2")
    pos = 0

    def take(expected=None):
        nonlocal pos
        tok = tokens[pos]
        if expected is not None and tok != expected:
            raise ValueError(f"mind_ir.proto: expected {expected!r} at token {pos}, got {tok!r}")
        pos += 1
        return tok

    def enum(target):
        e = target.add(name=take())
        take("{")
        while tokens[pos] != "}":
            name = take()
            take("=")
            e.value.add(name=name, number=int(take()))
            take(";")
        take("}")

    def message(target, scope):
        m = target.add(name=take())
        full = f"{scope}.{m.name}"
        take("{")
        while tokens[pos] != "}":
            kind = take()
            if kind == "enum":
                enum(m.enum_type)
            elif kind == "message":
                message(m.nested_type, full)
            else:
                type_name, name = take(), take()
                take("=")
                f = m.field.add(name=name, number=int(take()), label=_LABELS[kind])
                if type_name in _SCALARS:
                    f.type = _SCALARS[type_name]
                else:
                    f.type_name = type_name  # resolved below
                if tokens[pos] == "[":
                    while take() != "]":
                        pass
                take(";")
        take("}")
        # a map<> field's entry message (written out in the schema): a map again in Python
        if m.name.endswith("Entry") and [f.name for f in m.field] == ["key", "value"]:
            m.options.map_entry = True

    while pos < len(tokens):
        tok = take()
        if tok == "syntax":
            take("=")
            take()
            take(";")
        elif tok == "package":
            fd.package = take()
            take(";")
        elif tok == "enum":
            enum(fd.enum_type)
        elif tok == "message":
            message(fd.message_type, "")
        else:
            raise ValueError(f"mind_ir.proto: unexpected {tok!r}")
    _resolve(fd)
    return fd


def _resolve(fd):
    """Give each message/enum field its full type name and kind (proto scoping: innermost
    enclosing scope first)."""
    enums, msgs = set(), set()

    def collect(m, scope):
        full = f"{scope}.{m.name}"
        msgs.add(full)
        for e in m.enum_type:
            enums.add(f"{full}.{e.name}")
        for n in m.nested_type:
            collect(n, full)

    root = f".{fd.package}"
    for e in fd.enum_type:
        enums.add(f"{root}.{e.name}")
    for m in fd.message_type:
        collect(m, root)

    def fix(m, scope):
        full = f"{scope}.{m.name}"
        for f in m.field:
            if f.type_name:
                parts = full.split(".")
                for i in range(len(parts), 0, -1):
                    cand = ".".join(parts[:i]) + "." + f.type_name
                    if cand in msgs or cand in enums:
                        f.type_name = cand
                        f.type = _F.TYPE_ENUM if cand in enums else _F.TYPE_MESSAGE
                        break
                else:
                    raise ValueError(f"mind_ir.proto: unknown type {f.type_name!r}")
        for n in m.nested_type:
            fix(n, full)

    for m in fd.message_type:
        fix(m, root)


def _build():
    with open(SCHEMA, encoding="utf-8") as f:
        fd = _parse(f.read())
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    try:
        from google.protobuf import message_factory
        get = message_factory.GetMessageClass
    except (ImportError, AttributeError):  # protobuf < 4.21
        factory = message_factory.MessageFactory(pool)
        get = factory.GetPrototype
    return {m.name: get(pool.FindMessageTypeByName(f"{fd.package}.{m.name}"))
            for m in fd.message_type}


_MESSAGES = None


def messages():
    """{name: message class} of package mind_ir (ModelProto, GraphProto, ...)."""
    global _MESSAGES
    if _MESSAGES is None:
        _MESSAGES = _build()
    return _MESSAGES
