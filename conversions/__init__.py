"""Pipelines, file I/O and the command line of xsys.

The Python API (used by the CLI) lives in :mod:`xsys.conversions.api`; documents in
:mod:`xsys.conversions.documents`.
"""
