"""Build of the C extension (the double-dummy solver); the project metadata is in
pyproject.toml. The solvers of earlier commits, for their bots, are built from the git
history by ``coinche.bots.history``, which reads the list below as each commit had it."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "coinche.bots.solver._dds",
            ["src/coinche/bots/solver/dds.c"],
            extra_compile_args=["-O3"],
        ),
    ]
)
