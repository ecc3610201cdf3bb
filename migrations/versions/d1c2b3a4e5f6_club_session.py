"""Duplicate bridge at the club: the pairs, the tables with their own versions, each table's
result on each board, and the deals a results file gave

Revision ID: d1c2b3a4e5f6
Revises: a5e7c2d9b1f4
Create Date: 2026-11-23 18:10:00

"""

from alembic import op
import sqlalchemy as sa


revision = "d1c2b3a4e5f6"
down_revision = "a5e7c2d9b1f4"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "club_pair",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("direction", sa.String(length=2), nullable=False),
        sa.Column("names", sa.String(length=80), nullable=False),
        sa.Column("tiebreak", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_club_pair_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_pair")),
        sa.UniqueConstraint("game_id", "direction", "number", name=op.f("uq_club_pair_game_id")),
    )
    with op.batch_alter_table("club_pair", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_club_pair_game_id"), ["game_id"], unique=False)

    op.create_table(
        "club_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_club_table_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_table")),
        sa.UniqueConstraint("game_id", "number", name=op.f("uq_club_table_game_id")),
    )
    with op.batch_alter_table("club_table", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_club_table_game_id"), ["game_id"], unique=False)

    op.create_table(
        "club_result",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("ns", sa.Integer(), nullable=False),
        sa.Column("ew", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=True),
        sa.Column("strain", sa.String(length=2), nullable=True),
        sa.Column("doubled", sa.Integer(), nullable=False),
        sa.Column("declarer", sa.String(length=1), nullable=True),
        sa.Column("tricks", sa.Integer(), nullable=True),
        sa.Column("artificial_ns", sa.String(length=2), nullable=True),
        sa.Column("artificial_ew", sa.String(length=2), nullable=True),
        sa.Column("lead", sa.String(length=3), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("entered_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_club_result_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_result")),
        sa.UniqueConstraint(
            "game_id", "board", "table", "round", name=op.f("uq_club_result_game_id")
        ),
    )
    with op.batch_alter_table("club_result", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_club_result_game_id"), ["game_id"], unique=False)

    op.create_table(
        "club_deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("deal", sa.String(length=80), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_club_deal_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_deal")),
        sa.UniqueConstraint("game_id", "board", name=op.f("uq_club_deal_game_id")),
    )
    with op.batch_alter_table("club_deal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_club_deal_game_id"), ["game_id"], unique=False)


def downgrade():
    for table in ("club_deal", "club_result", "club_table", "club_pair"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f"ix_{table}_game_id"))
        op.drop_table(table)
