"""Value types without the ``dataclasses`` module: fields from the class's annotations, no code generated.

Why not ``@dataclass``: importing ``dataclasses`` pulls in ``inspect`` (and with it ``ast``, ``dis``,
``tokenize``), and every decorated class compiles its ``__init__``, ``__eq__``, ``__repr__`` from source
text at import.  ``python -m companion replay`` spent more instructions on that than on the replay itself
(issue 27, docs/performance.md).  A :class:`Value` subclass gets the same behaviour -- keyword or positional
construction in field order, defaults, fresh mutable defaults (:class:`Fresh`), ``==`` by fields, a
``Name(field=...)`` repr, ``frozen=True`` (assignment refused, hashed by fields) and ``eq=False`` (equal and
hashed by identity) -- from a few generic methods.

    class Tile(Value, frozen=True):
        terrain: str
        number: int | None = None
        extras: dict[str, int] = Fresh(dict)

Fields are the annotated names of the class and its :class:`Value` bases, bases' first (a subclass may give
a base's field a new default; it keeps its place).  ``fields_of(cls)`` lists them; ``replace(value, **changes)``
is a copy with some fields changed, through ``__init__`` as ``dataclasses.replace`` does.
"""

from __future__ import annotations

_MISSING = object()


class Fresh:
    """The default of a field that must not be shared between instances: ``Fresh(dict)`` makes a new
    ``{}`` for every instance that is not given one (``dataclasses.field(default_factory=dict)``)."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a ``frozen=True`` value."""


class Value:
    """Base of the rules' value types (see the module's doc)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()           # every field, in ``__init__`` order
    _known: frozenset = frozenset()         # the same, as a set
    _required: frozenset = frozenset()      # fields with no default
    _fresh: tuple = ()                      # (name, factory) of the Fresh defaults
    _frozen = False

    def __init_subclass__(cls, *, frozen: bool | None = None, eq: bool | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        fields = dict.fromkeys(cls._fields)
        fresh = dict(cls._fresh)
        required = set(cls._required)
        for name in cls.__dict__.get("__annotations__", {}):
            if name.startswith("__"):
                continue
            fields[name] = None
            default = cls.__dict__.get(name, _MISSING)
            fresh.pop(name, None)
            required.discard(name)
            if isinstance(default, Fresh):
                fresh[name] = default.make
                delattr(cls, name)  # (an instance always has its own)
            elif default is _MISSING:
                if not any(hasattr(base, name) for base in cls.__mro__[1:]):
                    required.add(name)
            # else: a plain default, read from the class attribute until the instance sets its own
        cls._fields = tuple(fields)
        cls._known = frozenset(fields)
        cls._fresh = tuple(fresh.items())
        cls._required = frozenset(required)
        if frozen is not None:
            if not frozen and cls._frozen:
                raise TypeError(f"{cls.__name__}: a frozen value's subclass is frozen too")
            cls._frozen = frozen
        if cls._frozen and "__setattr__" not in cls.__dict__:
            cls.__setattr__ = _refuse_setattr
            cls.__delattr__ = _refuse_delattr
        if eq is False:
            cls.__eq__ = object.__eq__
            cls.__hash__ = object.__hash__
        elif eq is True or "__eq__" not in cls.__dict__:
            if "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
                # as dataclasses: a frozen value hashes by its fields, a mutable one is not hashable
                cls.__hash__ = Value._hash_fields if cls._frozen else None

    def __init__(self, *args, **kwargs):
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} fields, got {len(args)}")
        values = dict(zip(names, args))
        for name in kwargs:
            if name in values:
                raise TypeError(f"{type(self).__name__} got field {name!r} twice")
        values.update(kwargs)
        if not self._fields_known(values):
            unknown = sorted(set(values) - set(names))
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(unknown)}")
        missing = [name for name in names if name in self._required and name not in values]
        if missing:
            raise TypeError(f"{type(self).__name__} needs {', '.join(missing)}")
        fresh = dict(self._fresh)
        cls = type(self)
        # Every field set on the instance, always in field order, one attribute at a time (as a dataclass's
        # __init__ does): instances of a class then share one key layout, which CPython's attribute
        # caches rely on -- filling __dict__ in bulk or leaving defaults to the class made every read of
        # a field slower (a replay: +14 % instructions).
        for name in names:
            if name in values:
                value = values[name]
            elif name in fresh:
                value = fresh[name]()
            else:
                value = getattr(cls, name)
            object.__setattr__(self, name, value)

    @classmethod
    def _fields_known(cls, values) -> bool:
        return cls._known.issuperset(values)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def _hash_fields(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._fields)})"


def _refuse_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _refuse_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def fields_of(cls_or_value) -> tuple[str, ...]:
    """The field names of a :class:`Value` class (or of a value's class), in ``__init__`` order."""
    return cls_or_value._fields


def replace(value: Value, **changes):
    """A copy of ``value`` with ``changes`` (through ``__init__``, so a frozen value's checks run again)."""
    return type(value)(**{**{name: getattr(value, name) for name in value._fields}, **changes})
