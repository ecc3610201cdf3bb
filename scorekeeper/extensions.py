"""The Flask extensions, created once and bound to the app in :func:`scorekeeper.create_app`."""

import sqlite3
from typing import TYPE_CHECKING, Any

from flask import request
from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session


class Base(DeclarativeBase):
    # Named constraints, so that migrations can alter them on SQLite and PostgreSQL alike.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:
    # Flask-SQLAlchemy makes db.Model when it runs, from Base and its own mixins (a table
    # named after its class, the binds): a type checker knows it as the Base it is made from.
    Model = Base
else:
    Model = db.Model

HELD = "held until closed"


@event.listens_for(Session, "loaded_as_persistent")
@event.listens_for(Session, "transient_to_pending")
def hold_until_closed(session: Session, instance: object) -> None:
    """Keep each object a session loads or is given alive as long as the session itself: to
    the end of the request, when Flask-SQLAlchemy removes the session.

    A session holds its loaded objects weakly. One the request no longer uses, caught in a
    reference cycle (a club session and its results), waits for the cycle collector, which
    runs in whichever thread happens to allocate; SQLAlchemy's weakref callback then edits the
    object's state in that thread while the owning thread may be closing the session and
    editing the same state. On Python 3.11 that crashed a server under fifteen tables posting
    at once: an object's attribute values were freed while its ``__dict__`` still used them.
    Held here, an object is only collected once its session is done with it."""
    session.info.setdefault(HELD, []).append(instance)


@event.listens_for(Engine, "connect")
def tune_sqlite(connection: Any, _record: Any) -> None:
    """SQLite for several phones at once: readers never wait for the writer (WAL), a writer
    waits its turn instead of failing, and foreign keys hold."""
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


migrate = Migrate(render_as_batch=True)
babel = Babel()
csrf = CSRFProtect()


class FormsLimiter(Limiter):
    """Flask-Limiter, counting forms sent alone: every limit the app sets counts POSTs (new
    games and imports), and its look-up before every other request, the pages the phones
    reload above all, found nothing to count for a tenth of a kept page's cost."""

    def _check_request_limit(
        self, callable_name: str | None = None, in_middleware: bool = True
    ) -> None:
        if request.method == "POST":
            super()._check_request_limit(callable_name, in_middleware)


limiter = FormsLimiter(key_func=get_remote_address)
