"""Scorer links: each game gets the secret of its scorer link.

Revision ID: 372d1774a1b2
Revises: 1cf64e230e19
Create Date: 2026-11-23 09:53:06.865718

"""
import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '372d1774a1b2'
down_revision = '1cf64e230e19'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scorer_token', sa.String(length=32), nullable=True))
    games = sa.table('game', sa.column('id', sa.String), sa.column('scorer_token', sa.String))
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.select(games.c.id)).all():
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(scorer_token=secrets.token_urlsafe(16))
        )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('scorer_token', existing_type=sa.String(length=32), nullable=False)


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('scorer_token')
