"""Developer tools, apart from the application (xsys.conversions): the benchmarks
(``python -m xsys.devtools.bench``, ``python -m xsys.devtools.serve_bench``) and the
generator of docs/calibration.md's measured tables. Nothing under core/, plugins/ or
conversions/ imports them (tests/test_layers.py). What they convert (which systems, which
fixtures) is data: fixtures/devtools/choices.toml; the tools name no game system."""
