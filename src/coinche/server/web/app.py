"""The web application (Starlette): it gathers the routes of the feature modules (play,
the deal review, the calculator, the rules pages), starts the live tables with its bot
pool and hub, and turns errors into the site's pages (never a traceback)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Mount, WebSocketRoute

from ..features.account_life import AccountLife
from ..features.account_recovery import AccountRecovery
from ..features.accounts import AccountService
from ..features.bots import Bots, BotStore
from ..features.leaderboard import Leaderboard
from ..features.metrics import SiteMetrics
from ..features.open_data import OpenData, OpenDataStore
from ..features.people_now import PeopleNow
from ..features.personal_data import PersonalData, PersonalStore
from ..infra.config import Settings
from ..infra.hub import Hub
from ..infra.store import Store
from ..services import start_services
from . import (
    account_pages,
    avatars,
    bot_api,
    bot_pages,
    bot_stream,
    calculator_page,
    club_pages,
    daily_pages,
    following_pages,
    friends_pages,
    history_pages,
    ladder_pages,
    mistake_pages,
    moderation_pages,
    open_data_pages,
    open_tables_pages,
    people_pages,
    profile_pages,
    progress_pages,
    public_api,
    puzzle_pages,
    quick_pages,
    recovery_pages,
    request_metrics,
    review_pages,
    rules_pages,
    season_pages,
    table_pages,
    tournament_pages,
    tutorial_pages,
    upload_pages,
    verify_page,
    watch_socket,
)
from .drain import Drain, HealthMiddleware
from .feed import StateFeed
from .forms import client_left
from .pages import WEB, VisitorMiddleware, lang_of_address, page
from .person_socket import person_socket
from .security import NulFreeAddresses, SecurityHeaders, secured
from .static_files import StaticAssets

log = logging.getLogger("coinche.web")


def create_app(settings: Settings | None = None, hub: Hub | None = None) -> Starlette:
    """The application, its database migrated and its secret key loaded; ``hub``: where
    the tables' new steps are announced (this process's own by default)."""
    settings = settings or Settings()
    store = Store(settings.database_url)
    secret = settings.secret_key or store.secret_key()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        services = await start_services(settings, store, hub)
        app.state.parts = services
        app.state.metrics = metrics = SiteMetrics()
        metrics.observe(services, services.mailer.store)
        services.mailer.sent_hooks.append(metrics.mail_sent)
        app.state.feed = feed = StateFeed(services)
        app.state.daily = services.daily
        app.state.history = services.history
        app.state.friends = services.friends
        services.daily.start_keeping_ahead()
        app.state.player_stats = services.player_stats
        app.state.quick_play = services.quick_play
        app.state.open_tables = services.open_tables
        app.state.following = services.following
        services.quick_play.start()
        app.state.tournaments = services.tournaments
        services.tournaments.start()
        app.state.accounts = accounts = AccountService(store, services.db, settings)
        accounts.gates.append(services.moderation.may_log_in)
        app.state.moderation = services.moderation
        app.state.seasons = services.seasons
        app.state.clubs = services.clubs
        app.state.club_points = services.club_points
        app.state.mailer = services.mailer
        services.mailer.start()
        app.state.ladder = services.ladder
        services.ladder.start()
        app.state.recovery = AccountRecovery(
            services.recovery_store, services.db, accounts, services.mailer, settings.clock, settings.public_url
        )
        services.seasons.start()
        app.state.bots = bots = BotStore(store)
        app.state.bot_accounts = bot_accounts = Bots(bots, services.db)
        app.state.account_life = AccountLife(
            accounts,
            services.tables,
            services.free_deals,
            services.hub,
            services.daily.signed_up,
            services.friends.give_up,
            bot_accounts,
        )
        app.state.personal_data = personal_data = PersonalData(PersonalStore(store), services.db)
        app.state.open_data = OpenData(OpenDataStore(store), services.db)
        accounts.erasers.append(personal_data.store.erase)
        app.state.tables = services.tables
        app.state.free_deals = services.free_deals
        app.state.rate_limits = services.rate_limits
        app.state.puzzles = services.puzzles
        app.state.adaptive_level = services.adaptive_level
        app.state.reviews = services.reviews
        app.state.accuracies = services.accuracies
        app.state.mistakes = services.mistakes
        app.state.progress = services.progress
        app.state.comparisons = services.comparisons
        app.state.people_now = PeopleNow(store, services.db)
        app.state.leaderboard = Leaderboard(store, services.db)
        app.state.coach = services.coach
        try:
            yield
        finally:
            metrics.close()
            app.state.accounts.close()
            await feed.close()
            await services.close()
            store.close()

    routes = [
        *table_pages.routes,
        *account_pages.routes,
        *recovery_pages.routes,
        *friends_pages.routes,
        *calculator_page.routes,
        *review_pages.routes,
        *rules_pages.routes,
        *verify_page.routes,
        *upload_pages.routes,
        *history_pages.routes,
        *daily_pages.routes,
        *puzzle_pages.routes,
        *mistake_pages.routes,
        *moderation_pages.routes,
        *season_pages.routes,
        *club_pages.routes,
        *progress_pages.routes,
        *tutorial_pages.routes,
        *profile_pages.routes,
        *people_pages.routes,
        *avatars.routes,
        *quick_pages.routes,
        *open_tables_pages.routes,
        *open_data_pages.routes,
        *following_pages.routes,
        *tournament_pages.routes,
        *bot_pages.routes,
        *ladder_pages.routes,
        *bot_api.routes,
        *public_api.page_routes,
        *bot_stream.routes,
        *watch_socket.routes,
        *request_metrics.routes,
        WebSocketRoute("/ws/me", person_socket),
        Mount("/static", StaticAssets(directory=str(WEB / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(NulFreeAddresses),
            Middleware(request_metrics.RequestMetrics),  # each request's id and figures
            Middleware(SecurityHeaders),
            Middleware(HealthMiddleware),  # before sessions: a probe sets and reads no cookie
            Middleware(public_api.PublicApi),  # the public read API (/api/v1): no cookie either
            Middleware(SessionMiddleware, secret_key=secret, same_site="lax", max_age=365 * 24 * 3600),
            Middleware(VisitorMiddleware),
        ],
        exception_handlers={HTTPException: http_error, ClientDisconnect: client_left, Exception: secured(server_error)},
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.drain = Drain()
    app.state.store = store
    app.state.secret = secret
    return app


async def http_error(request: Request, exc: Exception) -> Response:
    """A refusal's page, in the language its address says (``/en/...``, ``/puzzles/...``),
    else in the visitor's."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    lang = lang_of_address(request)
    if status == 404:
        return page(request, "404.html", status=404, lang=lang)
    if status == 403:
        return page(request, "forbidden.html", status=403, lang=lang)
    return page(request, "error.html", status=status, lang=lang, status_code=status)


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return page(request, "error.html", status=500, status_code=500)
