"""Op schemas as the fuzzer reads them: PyTorch's schema language, parsed just far enough to know
what each argument wants.

    >>> s = parse("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
    >>> [(a.name, a.kind, a.kwarg_only, a.is_out) for a in s.args]
    [('self', 'Tensor', False, False), ('other', 'Tensor', False, False), ('alpha', 'Scalar', True, False), ('out', 'Tensor', True, True)]

The schemas come from the running build (opscope._C._all_op_names / _op_schema), so the fuzzer
follows whatever ops the build declares.
"""
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Arg:
    name: str
    kind: str                 # Tensor, int, SymInt, float, bool, str, Scalar, ScalarType, Device,
                              # Layout, MemoryFormat, Generator, Dimname, ...
    is_list: bool = False
    fixed_size: int = 0       # int[2] -> 2
    optional: bool = False    # int? / Tensor?
    elem_optional: bool = False  # Tensor?[]
    mutable: bool = False     # Tensor(a!)
    has_default: bool = False
    default: str = ""
    kwarg_only: bool = False

    @property
    def is_out(self):
        return self.mutable and self.kwarg_only


@dataclass(frozen=True)
class Schema:
    full_name: str            # aten::add.out
    name: str                 # add
    overload: str             # out ("" for the default overload)
    args: tuple = field(default_factory=tuple)
    returns: str = ""

    @property
    def is_inplace(self):
        return self.name.endswith("_") and not self.name.startswith("_")

    @property
    def out_args(self):
        return [a for a in self.args if a.is_out]


_TYPE = re.compile(
    r"^(?P<base>[A-Za-z]+)(?P<alias>\([^)]*\))?(?P<eopt>\?)?(?P<list>\[(?P<n>\d*)\])?(?P<opt>\?)?$")


def _split_top(text):
    """Splits on commas that are not inside brackets or parentheses."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def parse_arg(text, kwarg_only):
    default = None
    if "=" in text:
        text, default = text.split("=", 1)
        text, default = text.strip(), default.strip()
    type_text, name = text.rsplit(" ", 1)
    type_text = type_text.replace(" ", "")
    m = _TYPE.match(type_text)
    if not m:
        raise ValueError(f"cannot parse argument type {type_text!r}")
    alias = m.group("alias") or ""
    is_list = m.group("list") is not None
    return Arg(
        name=name,
        kind=m.group("base"),
        is_list=is_list,
        fixed_size=int(m.group("n")) if is_list and m.group("n") else 0,
        optional=bool(m.group("opt")) or (not is_list and bool(m.group("eopt"))),
        elem_optional=is_list and bool(m.group("eopt")),
        mutable="!" in alias,
        has_default=default is not None,
        default=default or "",
        kwarg_only=kwarg_only,
    )


def parse(schema_text):
    m = re.match(r"^(?P<qual>[\w:.]+)\((?P<args>.*)\)\s*->\s*(?P<ret>.*)$", schema_text.strip())
    if not m:
        raise ValueError(f"cannot parse schema {schema_text!r}")
    qual = m.group("qual")
    if "::" not in qual:
        qual = "aten::" + qual
    ns_name = qual.split("::", 1)[1]
    name, _, overload = ns_name.partition(".")
    args, kwarg_only = [], False
    for part in _split_top(m.group("args")):
        if part == "*":
            kwarg_only = True
            continue
        args.append(parse_arg(part, kwarg_only))
    return Schema(full_name=qual, name=name, overload=overload, args=tuple(args),
                  returns=m.group("ret").strip())
