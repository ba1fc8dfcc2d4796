"""Build of the C extension (the double-dummy solver); the project metadata is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "coinche.bots.solver._dds",
            ["src/coinche/bots/solver/dds.c"],
            extra_compile_args=["-O3"],
        )
    ]
)
