"""Scorekeeper: a phone-first score keeper for card games played with a real deck."""

import gc
import os
import secrets
from datetime import timedelta
from importlib import import_module
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

ROOT = Path(__file__).resolve().parent.parent
FAMILY_PACKAGES = ("ascenseur", "bridge", "echelons", "teams", "club", "tarot")
"""The families of games the app serves: each a package with its blueprint (``bp``), which
registers its family with the table core when imported (scorekeeper.games.registry)."""


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The application: defaults, then the environment, then ``test_config``."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}",
        # A phone may lie on the table all evening: its forms must still be accepted.
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # The longest a browser keeps a cookie; it starts again whenever the cookie changes (a
        # game opened). The cookie is not sent again with every answer: a poll that set out
        # before a scorer link was opened must not put the older cookie back.
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        SESSION_REFRESH_EACH_REQUEST=False,
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        MAX_CONTENT_LENGTH=3 * 1024 * 1024,  # a game file with a long log of corrections
        # A private server (the family's own) lists every game and lets every phone score;
        # a public or club server shows each browser only its own games.
        PRIVATE_SERVER=False,
        # New games (started or imported) per client on a public server. Each process counts
        # alone unless RATELIMIT_STORAGE_URI names a shared store (redis://, memcached://).
        NEW_GAMES_LIMIT="30 per minute;300 per day",
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_HEADERS_ENABLED=True,
    )
    if database_url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    if storage := os.environ.get("RATELIMIT_STORAGE_URI"):
        app.config["RATELIMIT_STORAGE_URI"] = storage
    if limit := os.environ.get("SCOREKEEPER_NEW_GAMES_LIMIT"):
        app.config["NEW_GAMES_LIMIT"] = limit
    if secret_key := os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key
    if private := os.environ.get("SCOREKEEPER_PRIVATE"):
        app.config["PRIVATE_SERVER"] = private.lower() in ("1", "true", "yes")
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))

    # The circles that games and seats name, mapped before any query configures the models.
    import_module("scorekeeper.circles.models")
    from scorekeeper import assets, errors, i18n, security, serving
    from scorekeeper.extensions import csrf, db, limiter, migrate
    from scorekeeper.games import rights
    from scorekeeper.games.views import bp as games_bp

    # Templates indent for their readers; the pages go out without that whitespace.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    limiter.init_app(app)
    rights.init_app(app)
    i18n.init_app(app)
    assets.init_app(app)
    security.init_app(app)
    serving.init_app(app, lambda secure: security.fixed_headers(app, secure))
    app.register_blueprint(errors.bp)
    app.register_blueprint(games_bp)
    for name in FAMILY_PACKAGES:  # each registers itself with the core when imported
        app.register_blueprint(import_module(f"scorekeeper.{name}").bp)
    app.register_blueprint(import_module("scorekeeper.circles").bp)
    if os.environ.get("SCOREKEEPER_BEHIND_PROXY", "").lower() in ("1", "true", "yes"):
        # Behind a reverse proxy: trust its word on the scheme (HTTPS) and the client. The host
        # is the Host it passes on: a client's own X-Forwarded-Host would go through it untouched.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
    return app


def create_app_to_serve() -> Flask:
    """The application as a server process loads it, its start-up set aside from the garbage
    collector: the club deployment's ``granian --factory scorekeeper:create_app_to_serve``."""
    app = create_app()
    set_start_up_aside()
    return app


def set_start_up_aside() -> None:
    """Leave what start-up built (modules, routes, forms, translations) out of the garbage
    collector's full passes, which then go over only what the requests left behind.

    A full pass stops every thread of the process. Over the whole heap it took about 90 ms, once
    every 10 s under a club's load, and every request in flight waited for it; over what is left
    it takes a few ms."""
    gc.collect()
    gc.freeze()


def instance_secret_key(instance: Path) -> str:
    """The key that signs cookies: made once, kept in the instance folder, never in the repo."""
    key_file = instance / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_hex(32), encoding="ascii")
        key_file.chmod(0o600)
    return key_file.read_text(encoding="ascii").strip()
