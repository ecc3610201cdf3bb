"""Follow links: a browser that opened a game's follow link follows it only, even where every
phone scores (a private server)

Revision ID: 7a3f5c1e9d24
Revises: 5d2f8a3c6e91
Create Date: 2026-12-01 23:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "7a3f5c1e9d24"
down_revision = "5d2f8a3c6e91"
branch_labels = None
depends_on = None


def upgrade():
    # Every browser noted so far scores its game: it was noted by a scorer link or a new game.
    with op.batch_alter_table("browser_game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("scores", sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade():
    op.execute("DELETE FROM browser_game WHERE NOT scores")
    with op.batch_alter_table("browser_game", schema=None) as batch_op:
        batch_op.drop_column("scores")
