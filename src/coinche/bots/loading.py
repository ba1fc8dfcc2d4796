"""Finding a bot by its name: the built-in levels, a bot of an earlier commit
(``expert@023e446``, ``expert-v1``: built from the git history by ``history.py``) or any
importable ``module:attribute``; every way one can fail to load is a ``BotLoadError``."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from .base import Bot, BotFactory, BotLoadError, failure_text
from .engine_protocol import PREFIX, command_factory
from .history import BASELINES, past_factory

BUILTIN_BOTS: dict[str, str] = {
    "random": "coinche.bots.random_bot:RandomBot",
    "beginner": "coinche.bots.beginner:BeginnerBot",
    "confirmed": "coinche.bots.confirmed:ConfirmedBot",
    "expert": "coinche.bots.expert:ExpertBot",
    "expert-uniform": "coinche.bots.expert:UniformExpertBot",
    "expert-no-play-model": "coinche.bots.expert:NoPlayModelExpertBot",
    "adaptive": "coinche.bots.adaptive:AdaptiveBot",
}


def bot_factory(spec: str) -> BotFactory:
    """The factory for a bot name (``beginner``...), a bot of an earlier commit
    (``expert@023e446``, ``expert-v1``: see ``history.py``) or an importable
    ``module:attribute`` (a ``Bot`` subclass or any callable taking ``seed=`` and returning
    a ``Bot``)."""
    if spec.startswith(PREFIX):  # a program speaking the engine protocol
        return command_factory(spec)
    if spec in BASELINES or ("@" in spec and ":" not in spec):
        past = past_factory(spec)
        if past is not None:
            return past
    target = BUILTIN_BOTS.get(spec, spec)
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        known = ", ".join([*BUILTIN_BOTS, *BASELINES])
        raise BotLoadError(f"unknown bot {spec!r} (expected one of {known}, NAME@COMMIT or module:attribute)")
    try:
        module = importlib.import_module(module_name)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # a module may fail any way, sys.exit included
        raise BotLoadError(f"cannot import bot module {module_name!r}: {failure_text(e)}") from None
    factory: Any = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise BotLoadError(f"{module_name!r} has no bot {attr!r}")
    if inspect.isclass(factory) and inspect.isabstract(factory):
        missing = ", ".join(sorted(getattr(factory, "__abstractmethods__", ())))
        raise BotLoadError(f"bot {spec!r} is an abstract class (it does not implement {missing})")
    if not _takes_seed(factory):
        raise BotLoadError(f"bot {spec!r} takes no seed= argument (a bot factory is called with seed=)")
    return factory  # type: ignore[no-any-return]


def _takes_seed(factory: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # no signature to read: the call will tell
        return True
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return any(p.kind is inspect.Parameter.VAR_KEYWORD or (p.name == "seed" and p.kind in keyword) for p in parameters)


def build_bot(factory: BotFactory, spec: str, seed: int | None = None, **params: Any) -> Bot:
    """Call a bot factory; ``BotLoadError`` when it fails (whatever it raises, a
    ``sys.exit`` included) or makes something that is not a ``Bot``."""
    try:
        bot = factory(seed=seed, **params)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise BotLoadError(f"bot {spec!r} could not be built: {failure_text(e)}") from None
    if not isinstance(bot, Bot):
        raise BotLoadError(f"{spec!r} did not make a Bot (got {type(bot).__name__})")
    missing = type(bot).missing_methods()
    if missing:
        raise BotLoadError(f"bot {spec!r} cannot play: it implements neither choose nor {' and '.join(missing)}")
    return bot


def load_bot(spec: str, seed: int | None = None, **params: Any) -> Bot:
    """Build a bot by name or ``module:attribute``; the result is checked to be a ``Bot``.
    Every way a bot can fail to load or build is a ``BotLoadError`` with a one-line reason."""
    return build_bot(bot_factory(spec), spec, seed, **params)
