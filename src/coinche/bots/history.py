"""Bots of earlier commits, played from the git history rather than from copies.

A spec ``NAME@REV`` (``expert@023e446``) is the built-in bot ``NAME`` as it stood at commit
``REV``; ``expert-v1`` and ``expert-v2`` are two such commits by name (``BASELINES``). Every
change to a bot is measured in the arena against the version it replaces, and that version
must play exactly as it did: nothing of the current tree (engine, solver, fitted data) may
leak into it. So the commit's own tree is exported with ``git archive`` into a cache folder
keyed by the commit and the interpreter's ABI (``$XDG_CACHE_HOME/coinche/trees/``, default
``~/.cache``), its C extensions (listed in its ``setup.py``) compiled there with gcc, and
its bots run in a separate Python process under that tree's code.

The process is ``history_driver.py`` (of the current tree, run with ``PYTHONPATH`` on the
old tree's ``src``), one per commit and per process of ours, shared by every bot of that
commit as the copies used to share one interpreter. It speaks JSON lines on its stdin and
stdout, one answer line per request line, in the wire format (``engine/wire.py``) that
both sides have: a seat's view is ``view_to_json``, an action ``action_to_json``:

* first, unasked, ``{"ready": true, "coinche": PATH}`` once the old code is imported;
* ``{"op": "new", "bot": ID, "name": NAME, "seed": S, "params": {...}}`` builds a bot:
  ``{"ok": true, "observes": BOOL}`` (whether it has an ``observe_result`` of its own);
* ``{"op": "choose", "bot": ID, "view": VIEW}``: ``{"action": ACTION, "explanation": ...,
  "private_explanation": ..., "reason": MESSAGE, "private_reason": MESSAGE}``;
* ``{"op": "observe", "bot": ID, "view": VIEW}``: ``{"ok": true}``;
* any request may carry ``"drop": [ID, ...]``, bots gone on our side, forgotten first;
* a failure is ``{"error": "Type: text"}``, and the bot's decision then raises here.

The old side rebuilds the seat's ``View`` with its own ``view_from_json``, so its bot sees
exactly what ours would, hidden cards excepted as always; a commit can be played from the
one that brought the wire format (303a2bf) on. What the two catalogues may not share
stays behind: the result's score lines are not sent (no bot reads them), and a reason
whose message id ours no longer has comes back as its English text only.

Building is safe when several processes (pytest-xdist workers) want the same commit at
once: one builds under a file lock, into a temporary folder renamed into place when
complete; the others wait and then find it. A built tree needs no git: ``expert-v1`` and
``expert-v2`` name full commits, so once cached they run from a copy without history.
A tree is never rebuilt: delete its folder to build it again.
"""

from __future__ import annotations

import atexit
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
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Final

from ..engine.deal import View
from ..engine.messages import Message
from ..engine.wire import WireError, action_from_json, message_from_json, view_to_json
from .base import Bot, BotFactory, BotLoadError, Decision

DRIVER: Final = Path(__file__).with_name("history_driver.py")
"""The script the old tree's process runs (it adapts to that tree's API)."""
_SPEC: Final = re.compile(r"(?P<name>[a-z][a-z0-9_-]*)@(?P<rev>[^\s:@]+)")
_FULL_COMMIT: Final = re.compile(r"[0-9a-f]{40}")
_TREE_PATHS: Final = ("src/coinche", "setup.py")
"""What of a commit is exported: its package, and the list of its C extensions."""


BASELINES: dict[str, str] = {
    "expert-v1": "37946d1cbff6762881cc5cea4ff2c441fca80c2d",
    "expert-v2": "023e4469ab46c95ff5e7c42ad040954cf044322d",
}
"""The expert frozen as named baselines: the commit each one plays (``expert@COMMIT``, built
from the git history by ``history.py``). ``expert-v1``: as issue 9 started; ``expert-v2``: as
issue 20 started. Not in ``loading.BUILTIN_BOTS``: the server never builds a commit."""


class PastBotError(RuntimeError):
    """The old tree's process failed: it could not start, it died, or it answered with an
    error (its bot raised)."""


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
    return PastBot(_driver(commit), spec, name, seed, params)


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


# ----- the old tree's process -----


class _Driver:
    """One old tree's process, owned by the process that started it (a forked child
    starts its own: the pipes are not shared)."""

    def __init__(self, commit: str) -> None:
        self.commit = commit
        self.tree = build_tree(commit)
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.next_id = 0
        self.gone: list[int] = []
        """Bots dropped on our side, to forget with the next request."""
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (open as long as the process)
        # PYTHONPATH: the old tree's code, and none of ours (-P: nor the script's folder);
        # a fixed hash seed: the old process decides alike whatever ours is.
        env = dict(os.environ, PYTHONPATH=str(self.tree / "src"), PYTHONHASHSEED="0")
        self.proc = subprocess.Popen(
            [sys.executable, "-P", str(DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=env,
            cwd=self.tree,
        )
        hello = self._read()
        if "error" in hello:
            self.close()
            raise PastBotError(f"commit {commit[:12]} cannot be played: {hello['error']}")
        where = str(hello.get("coinche", ""))
        if not hello.get("ready") or not Path(where).resolve().is_relative_to(self.tree.resolve()):
            self.close()
            raise PastBotError(f"the process of commit {commit[:12]} imported coinche from {where or 'nowhere'}")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read its answer (``PastBotError`` on a failure)."""
        with self.lock:
            if self.gone:
                message["drop"], self.gone = self.gone, []
            line = json.dumps(message, separators=(",", ":")) + "\n"
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(line.encode())
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                raise PastBotError(self._died()) from None
            answer = self._read()
        if "error" in answer:
            raise PastBotError(str(answer["error"]))
        return answer

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise PastBotError(self._died())
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise PastBotError(f"the process of commit {self.commit[:12]} answered {line[:200]!r}")
        return answer

    def _died(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        self.stderr.seek(0)
        tail = self.stderr.read().decode(errors="replace").strip().splitlines()[-5:]
        return f"the process of commit {self.commit[:12]} ended (exit {code}): " + " | ".join(tail)

    def new_bot(self) -> int:
        """A number for a new bot, unique in this process of the old tree."""
        with self.lock:
            self.next_id += 1
            return self.next_id

    def drop(self, bot: int) -> None:
        """Called when a bot is collected: no I/O here, the next request carries it."""
        self.gone.append(bot)

    def close(self) -> None:
        """End the process: it exits when its stdin closes."""
        if self.pid != os.getpid():
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


_DRIVERS: dict[str, _Driver] = {}
_DRIVERS_LOCK = threading.Lock()


def _driver(commit: str) -> _Driver:
    with _DRIVERS_LOCK:
        d = _DRIVERS.get(commit)
        if d is None or d.pid != os.getpid() or d.proc.poll() is not None:
            d = _DRIVERS[commit] = _Driver(commit)
        return d


def _forget_after_fork() -> None:
    """A forked child leaves its parent's processes to the parent (and takes a fresh lock:
    the parent's may have been held by another thread at the fork)."""
    global _DRIVERS_LOCK
    _DRIVERS.clear()
    _DRIVERS_LOCK = threading.Lock()


@atexit.register
def _close_all() -> None:
    for d in list(_DRIVERS.values()):
        d.close()
    _DRIVERS.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


# ----- the bot -----


class PastBot(Bot):
    """A bot of an earlier commit, playing in that commit's process: every decision sends
    the seat's view there and brings the action (and its reasons) back."""

    def __init__(self, driver: _Driver, spec: str, name: str, seed: int | None, params: dict[str, Any]) -> None:
        super().__init__(seed)
        self.name = spec
        self.commit = driver.commit
        self._driver = driver
        self._id = driver.new_bot()
        try:
            json.dumps(params)
        except (TypeError, ValueError) as e:
            raise TypeError(f"the parameters of a bot of an earlier commit are JSON data: {e}") from None
        answer = driver.request({"op": "new", "bot": self._id, "name": name, "seed": seed, "params": params})
        self._observes = bool(answer.get("observes"))
        weakref.finalize(self, driver.drop, self._id)

    def choose(self, view: View) -> Decision:
        answer = self._driver.request({"op": "choose", "bot": self._id, "view": view_to_json(view)})
        return Decision(
            action_from_json(answer["action"], view),
            answer.get("explanation"),
            answer.get("private_explanation"),
            _message(answer.get("reason")),
            _message(answer.get("private_reason")),
        )

    def observe_result(self, view: View) -> None:
        if self._observes:
            self._driver.request({"op": "observe", "bot": self._id, "view": view_to_json(view)})


def _message(data: Any) -> Message | None:
    """A reason of the old bot as a message of ours; None when it has none, or an id our
    catalogue no longer has (its English text stays in the decision's explanation)."""
    if not isinstance(data, dict):
        return None
    try:
        return message_from_json(data)
    except (WireError, KeyError, TypeError):
        return None
