"""Overload stubs in every spelling the #decorated-as-overload? predicate must read as #match? did."""

import typing
import typing as t
from typing import overload

import my.overload as overload_module


@overload
def plain(x: int) -> int: ...
@overload
def plain(x: str) -> str: ...
def plain(x):
    return x


@typing.overload
def dotted(x: int) -> int: ...
@t.overload
def dotted(x: str) -> str: ...
def dotted(x):
    return x


@a.b.overload
def deep(x: int) -> int: ...
def deep(x):
    return x


@typing . overload
def spaced(x: int) -> int: ...
def spaced(x):
    return x


@overload()
def called(x: int) -> int: ...
def called(x):
    return x


@myoverload
def suffix(x: int) -> int: ...
@overloaded
def prefix(x: int) -> int: ...
@overload.other
def attribute_of(x: int) -> int: ...
@overload_module
def module(x: int) -> int: ...


@staticmethod
@overload
# a comment between decorators
@functools.wraps(f)
def stacked(x: int) -> int: ...
@overload
@overload
def twice(x: str) -> str: ...
def stacked(x):
    return x


class Shapes:
    @overload
    def area(self, x: int) -> int: ...
    @typing.overload
    def area(self, x: str) -> str: ...
    def area(self, x):
        return x

    @property
    @overload
    def odd(self) -> int: ...

    @overload
    class Inner:  # a class is no function definition
        pass


@overload
async def fetch(x: int) -> int: ...
async def fetch(x):
    return x


# Broken code: a decorator with an error, an unfinished stub.
@overload(
def broken(x: int) -> int: ...
@overload
def unfinished(x: int
def after():
    pass
