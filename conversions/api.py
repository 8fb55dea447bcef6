"""The Python API of xsys: the operations the CLI offers, as plain functions.

- :func:`load` reads a document file (YAML/JSON/TOML) into its typed form;
- :func:`convert` converts a document (typed, plain data, or a path) to another system;
- :func:`to_neutral` lifts a document into the neutral model;
- :func:`odds` computes every system's native check and exact chance for shots.

Every conversion returns its output together with its loss report and trace.

This module is the public facade; the work is done by one module per job:

- :mod:`.loading`: documents and the systems they name, with their settings;
- :mod:`.crossing`: a document into the neutral model and out of it, each written item
  checked by the loss audit (:mod:`xsys.core.audit`);
- :mod:`.carrying`: what a written stat block carries for other systems (``carried:``);
- :mod:`.origin`: the remembered source (``xsys.origin``): restored, or merged with a hand edit;
- :mod:`.odds`: each system's check of a shot;
- :mod:`.convert`: :func:`convert` and :func:`dump`, which put these together.
"""

from __future__ import annotations

from xsys.core.audit import LossAudit
from xsys.core.errors import InputError, LossError, PluginError, XsysError
from xsys.core.registry import default_registry

# the private names are the ones the CLI, the server, the stream and tests call through api
from .carrying import _carry
from .convert import convert, dump
from .crossing import Conversion, from_neutral, to_neutral
from .loading import Loaded, Settings, _merge_settings, from_plain, load, parse_settings, system_for
from .odds import (OddsResult, NativeShot, NativeSource, check_native, native_check_of, native_source, odds,
                   shot_checks, shots_of)
from .origin import EDIT_RULE, ORIGIN_DEPTH, ORIGIN_RULE, _origin_of, digest
