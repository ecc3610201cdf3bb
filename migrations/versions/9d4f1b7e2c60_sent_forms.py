"""The forms phones kept while the network was down, by their one-time token: applied once

Revision ID: 9d4f1b7e2c60
Revises: 6c1e9a3d5b72
Create Date: 2026-12-03 11:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "9d4f1b7e2c60"
down_revision = "6c1e9a3d5b72"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "sent_form",
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("location", sa.String(length=500), nullable=False),
        sa.Column("arrived_at", sa.DateTime(), nullable=False),
        sa.Column("kept_for", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_sent_form_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_sent_form")),
    )
    with op.batch_alter_table("sent_form", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sent_form_game_id"), ["game_id"], unique=False)


def downgrade():
    with op.batch_alter_table("sent_form", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sent_form_game_id"))
    op.drop_table("sent_form")
