"""A spec's `module:function` references (its rewrite, its state reader, the law's values),
imported once per process: the spec checks them at load, the grading calls them."""
import importlib
from functools import cache
from typing import Callable


@cache
def load(name: str) -> Callable:
    """The function `name` ("module:function") names; ImportError, AttributeError or
    ValueError when it names none."""
    module, colon, function = name.partition(":")
    if not colon or not module or not function:
        raise ValueError(f"{name!r} is not module:function")
    found = getattr(importlib.import_module(module), function)
    if not callable(found):
        raise TypeError(f"{name} is not a function")
    return found
