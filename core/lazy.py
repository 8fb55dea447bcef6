"""Deferred imports for plugin packages. Registering a plugin (every ``xsys`` run, ``xsys
--help`` too) imports only its ``__init__``; the code that does the work is imported the first
time it is used. A plugin's ``__init__`` names what it offers and where it lives, nothing more:

    __getattr__ = lazy.exports(__name__, {"CocSystem": "system"}, modules=("rules",))
    register("ccfolia", (), lazy.deferred(f"{__name__}.reader", "load"), ...)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable, Mapping


def deferred(module: str, name: str) -> Callable[..., Any]:
    """A function that imports `module` when first called and calls its `name`."""
    found: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(getattr(import_module(module), name))
        return found[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__module__ = module  # a fault in it is blamed on its plugin, not on this module
    call.__doc__ = f"{module}.{name}, imported on first use"
    return call


def exports(package: str, public: Mapping[str, str], modules: tuple[str, ...] = ()) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for `package`: each name of `public` from the
    submodule it maps to, each of `modules` as that submodule itself."""

    def __getattr__(name: str) -> Any:
        if name in public:
            return getattr(import_module(f"{package}.{public[name]}"), name)
        if name in modules:
            return import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
