"""The neutral core of xsys: units, the neutral model, ladders, exact dice, provenance and
the plugin API. It knows no game system."""

__version__ = "0.1.0"
