"""Bots of earlier commits, played from the git history rather than from copies.

A spec ``NAME@REV`` (``expert@023e446``) is the built-in bot ``NAME`` as it stood at commit
``REV``; ``expert-v1`` and ``expert-v2`` are two such commits by name (``BASELINES``). Every
change to a bot is measured in the arena against the version it replaces, and that version
must play exactly as it did: nothing of the current tree (engine, solver, fitted data) may
leak into it. So the commit's own tree is exported with ``git archive`` into a cache folder
keyed by the commit and the interpreter's ABI (``$XDG_CACHE_HOME/coinche/trees/``, default
``~/.cache``), its C extensions (listed in its ``setup.py``) compiled there with gcc, and
its bots run in a separate Python process under that tree's code.

The bot plays as an engine speaking the coinche engine protocol (``docs/engine-protocol.md``,
``engine_protocol.EngineBot``): ``history_driver.py`` (of the current tree, run with
``PYTHONPATH`` on the old tree's ``src``) builds the old bot and answers ``decide`` with
its action, in the wire format (``engine/wire.py``) both sides have, so a past bot plays
wherever any program does: the arena keeps one process a seat for a whole match and tells
it each deal's seed (``deal``), so it plays as a fresh bot of that seed would. The old side
rebuilds the seat's ``View`` with its own ``view_from_json``, so its bot sees exactly what
ours would, hidden cards excepted as always; a commit can be played from the one that
brought the wire format (303a2bf) on. What the two catalogues may not share stays
behind: the result's score lines are not sent (no bot reads them), and only the English
explanation of a decision comes back. A bot that cannot be built (an unknown parameter)
is a ``BotLoadError`` here; a failure in a decision is a fault of the engine.

Building is safe when several processes (pytest-xdist workers) want the same commit at
once: one builds under a file lock, into a temporary folder renamed into place when
complete; the others wait and then find it. A built tree needs no git: ``expert-v1`` and
``expert-v2`` name full commits, so once cached they run from a copy without history.
A tree is never rebuilt: delete its folder to build it again.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from .base import BotFactory, BotLoadError
from .engine_protocol import EngineBot

DRIVER: Final = Path(__file__).with_name("history_driver.py")
"""The script the old tree's process runs (it adapts to that tree's API)."""
_SPEC: Final = re.compile(r"(?P<name>[a-z][a-z0-9_-]*)@(?P<rev>[^\s:@]+)")
_FULL_COMMIT: Final = re.compile(r"[0-9a-f]{40}")
PAST_DECISION_MS: Final = 120_000
"""An old bot's time for one decision: long, so that a loaded machine never turns a slow
decision into a fault (a baseline must play exactly as it did)."""
_TREE_PATHS: Final = ("src/coinche", "setup.py")
"""What of a commit is exported: its package, and the list of its C extensions."""


BASELINES: dict[str, str] = {
    "expert-v1": "37946d1cbff6762881cc5cea4ff2c441fca80c2d",
    "expert-v2": "023e4469ab46c95ff5e7c42ad040954cf044322d",
}
"""The expert frozen as named baselines: the commit each one plays (``expert@COMMIT``, built
from the git history by ``history.py``). ``expert-v1``: as issue 9 started; ``expert-v2``: as
issue 20 started. Not in ``loading.BUILTIN_BOTS``: the server never builds a commit."""


def parse_spec(spec: str) -> tuple[str, str] | None:
    """``(bot name, revision)`` of a spec naming a commit (``expert@023e446``, or
    ``expert-v1``), None for any other spec."""
    if spec in BASELINES:
        return "expert", BASELINES[spec]
    m = _SPEC.fullmatch(spec)
    return (m["name"], m["rev"]) if m else None


def past_factory(spec: str) -> BotFactory | None:
    """The factory of a spec naming a commit (None for any other spec); its revision is
    resolved now (``BotLoadError`` if the repository does not have it), the commit's tree
    is built when the first bot is."""
    parsed = parse_spec(spec)
    if parsed is None:
        return None
    name, rev = parsed
    commit = resolve_commit(rev)
    return functools.partial(_past_bot, spec=spec, name=name, commit=commit)


def _past_bot(*, spec: str, name: str, commit: str, seed: int | None = None, **params: Any) -> PastBot:
    return PastBot(spec, name, commit, seed, params)


# ----- the repository and the cache -----


def repository() -> Path:
    """The git work tree whose history holds the commits: ``$COINCHE_REPO`` if set, else
    the checkout this module lives in."""
    env = os.environ.get("COINCHE_REPO")
    return Path(env) if env else Path(__file__).resolve().parents[3]


def _git(*args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(repository()), *args], capture_output=True, check=False)
    except OSError as e:
        raise BotLoadError(f"git is needed to play a bot of an earlier commit: {e}") from None


def resolve_commit(rev: str) -> str:
    """The full commit ``rev`` names. A full commit already built is taken as it is (no
    git needed); else ``git rev-parse`` in ``repository()``, ``BotLoadError`` if it fails."""
    if _FULL_COMMIT.fullmatch(rev) and tree_dir(rev).is_dir():
        return rev
    if rev.startswith("-"):
        raise BotLoadError(f"not a revision: {rev!r}")
    done = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if done.returncode:
        where = repository()
        raise BotLoadError(f"no commit {rev!r} in the git history of {where} (a git clone has it; see COINCHE_REPO)")
    return done.stdout.decode().strip()


def cache_root() -> Path:
    """Where built trees are kept: ``$XDG_CACHE_HOME/coinche/trees`` (default ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "coinche" / "trees"


def _abi() -> str:
    """The interpreter's extension tag (``cpython-311-x86_64-linux-gnu``): a tree's compiled
    extensions load only in an interpreter of the same ABI."""
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    return suffix.strip(".").removesuffix(".so").replace(".", "-") or "abi"


def tree_dir(commit: str) -> Path:
    """The folder of ``commit``'s built tree (present only once complete)."""
    return cache_root() / f"{commit}-{_abi()}"


def build_tree(commit: str) -> Path:
    """``commit``'s tree, exported and compiled once (later calls find it in the cache)."""
    final = tree_dir(commit)
    if final.is_dir():
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    with _locked(final.with_name(final.name + ".lock")):
        if final.is_dir():  # built by another process while we waited
            return final
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=final.parent))
        try:
            start = time.monotonic()
            _export(commit, tmp)
            built = _compile(tmp)
            manifest = {"commit": commit, "abi": _abi(), "extensions": built, "seconds": time.monotonic() - start}
            (tmp / "build.json").write_text(json.dumps(manifest, indent=1) + "\n")
            os.rename(tmp, final)  # atomic: the tree appears complete or not at all
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return final


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` between processes (released when the holder exits)."""
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _export(commit: str, into: Path) -> None:
    """``git archive`` of the commit's package and ``setup.py`` (those it has), unpacked
    into ``into``."""
    listed = _git("ls-tree", "--name-only", commit, "--", *_TREE_PATHS)
    paths = listed.stdout.decode().split() if listed.returncode == 0 else []
    if "src/coinche" not in paths:
        raise BotLoadError(f"commit {commit[:12]} has no src/coinche to play")
    with subprocess.Popen(
        ["git", "-C", str(repository()), "archive", "--format=tar", commit, "--", *paths],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        broken: tarfile.TarError | None = None
        try:
            with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
                if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                    tar.extractall(into, filter="data")
                else:
                    tar.extractall(into)  # our own repository's archive
        except tarfile.TarError as e:
            broken = e  # git's complaint, if any, says more
        err = proc.stderr.read().decode(errors="replace").strip()
    if proc.returncode or broken is not None:
        raise BotLoadError(f"git archive {commit} failed: {err or broken}")


def _extensions(setup_py: Path) -> list[tuple[str, list[str], list[str]]]:
    """``(module, sources, extra_compile_args)`` of each ``Extension(...)`` of a commit's
    ``setup.py``, read without running it (its literals only)."""
    import ast

    if not setup_py.is_file():
        return []
    out: list[tuple[str, list[str], list[str]]] = []
    for node in ast.walk(ast.parse(setup_py.read_text())):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Extension"):
            continue
        args = [ast.literal_eval(a) for a in node.args]
        kw = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
        name = args[0] if args else kw["name"]
        sources = args[1] if len(args) > 1 else kw["sources"]
        out.append((str(name), [str(s) for s in sources], [str(a) for a in kw.get("extra_compile_args", [])]))
    return out


def _compile(tree: Path) -> list[str]:
    """Compile the tree's C extensions next to their sources (as ``build_ext --inplace``
    would) with gcc; the modules built."""
    paths = sysconfig.get_paths()
    includes = [f"-I{d}" for d in dict.fromkeys((paths["include"], paths["platinclude"]))]
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    built: list[str] = []
    for name, sources, extra in _extensions(tree / "setup.py"):
        target = tree / "src" / (name.replace(".", "/") + suffix)
        cmd = ["gcc", "-shared", "-fPIC", "-fwrapv", "-DNDEBUG", "-O3", *extra, *includes]
        cmd += [str(tree / s) for s in sources] + ["-o", str(target)]
        try:
            done = subprocess.run(cmd, capture_output=True, check=False)
        except OSError as e:
            raise BotLoadError(f"gcc is needed to build {name} of an earlier commit: {e}") from None
        if done.returncode:
            raise BotLoadError(f"gcc failed on {name}: {done.stderr.decode(errors='replace').strip()[-500:]}")
        built.append(name)
    return built


# ----- the bot -----


class PastBot(EngineBot):
    """A bot of an earlier commit, playing in a process of that commit's tree as an engine
    speaking the coinche engine protocol (``history_driver.py``): every decision sends the
    seat's view there and brings the action (and its explanation) back; a failure there is
    a fault of the engine (its seat plays its first legal action), never a crash here."""

    def __init__(self, spec: str, name: str, commit: str, seed: int | None, params: dict[str, Any]) -> None:
        try:
            words = json.dumps(params)
        except (TypeError, ValueError) as e:
            raise BotLoadError(f"the parameters of a bot of an earlier commit are JSON data: {e}") from None
        tree = build_tree(commit)
        # PYTHONPATH: the old tree's code, and none of ours (-P: nor the script's folder);
        # a fixed hash seed: the old process decides alike whatever ours is.
        env = dict(os.environ, PYTHONPATH=str(tree / "src"), PYTHONHASHSEED="0")
        argv = [sys.executable, "-P", str(DRIVER), name, words]
        try:
            super().__init__(argv, seed, PAST_DECISION_MS, env=env, cwd=str(tree))
        except BotLoadError as e:
            raise BotLoadError(f"{spec} ({commit[:12]}): {e}") from None
        self.name = spec
        self.commit = commit
        where = str(self.hello.get("coinche", ""))
        if not where or not Path(where).resolve().is_relative_to(tree.resolve()):
            self.close()
            raise BotLoadError(f"the process of commit {commit[:12]} imported coinche from {where or 'nowhere'}")
