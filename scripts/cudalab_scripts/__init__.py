"""The kit's scripts that read data: sanitize, ncu, nsys, debug, bench, the docs' tables (tables,
capture_runs), and the resource spec of the GPU tests.

Each reads the labs from `cudalab list --format json` (labs.py) and the tools' reports with the
csv module, so a new lab or variant needs no script edit. scripts/<name>.sh runs
`python3 -m cudalab_scripts.<name>`; each module's docstring is its --help.
"""
