"""Build of the C extensions (the double-dummy solver, and the copy of it frozen with the
``expert-v2`` baseline); the project metadata is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "coinche.bots.solver._dds",
            ["src/coinche/bots/solver/dds.c"],
            extra_compile_args=["-O3"],
        ),
        Extension(
            "coinche.bots.baselines.expert_v2._dds",
            ["src/coinche/bots/baselines/expert_v2/dds.c"],
            extra_compile_args=["-O3"],
        ),
    ]
)
