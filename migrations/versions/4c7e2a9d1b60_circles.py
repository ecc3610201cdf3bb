"""Circles: the people who play together, the games played in a circle, the person in each seat

Revision ID: 4c7e2a9d1b60
Revises: e8b4d2f6a1c3
Create Date: 2026-11-28 01:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "4c7e2a9d1b60"
down_revision = "e8b4d2f6a1c3"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "circle",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("scorer_token", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_circle")),
    )
    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("circle_id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("shows_name", sa.Boolean(), nullable=False),
        sa.Column("merged_into_id", sa.Integer(), nullable=True),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["circle_id"],
            ["circle.id"],
            name=op.f("fk_person_circle_id_circle"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["merged_into_id"],
            ["person.id"],
            name=op.f("fk_person_merged_into_id_person"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_person")),
        sa.UniqueConstraint("circle_id", "name_key", name=op.f("uq_person_circle_id")),
        sa.UniqueConstraint("token", name=op.f("uq_person_token")),
    )
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_person_circle_id"), ["circle_id"], unique=False)
    op.create_table(
        "circle_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("circle_id", sa.String(length=16), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("old", sa.String(length=40), nullable=True),
        sa.Column("new", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(
            ["circle_id"],
            ["circle.id"],
            name=op.f("fk_circle_change_circle_id_circle"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["person.id"],
            name=op.f("fk_circle_change_person_id_person"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_circle_change_game_id_game"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_circle_change")),
    )
    with op.batch_alter_table("circle_change", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_circle_change_circle_id"), ["circle_id"], unique=False)
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("circle_id", sa.String(length=16), nullable=True))
        batch_op.add_column(
            sa.Column("out_of_history", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_game_circle_id_circle"),
            "circle",
            ["circle_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_index(batch_op.f("ix_game_circle_id"), ["circle_id"], unique=False)
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.add_column(sa.Column("person_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_player_person_id_person"),
            "person",
            ["person_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_index(batch_op.f("ix_player_person_id"), ["person_id"], unique=False)


def downgrade():
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_person_id"))
        batch_op.drop_constraint(batch_op.f("fk_player_person_id_person"), type_="foreignkey")
        batch_op.drop_column("person_id")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_circle_id"))
        batch_op.drop_constraint(batch_op.f("fk_game_circle_id_circle"), type_="foreignkey")
        batch_op.drop_column("out_of_history")
        batch_op.drop_column("circle_id")
    with op.batch_alter_table("circle_change", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_circle_change_circle_id"))
    op.drop_table("circle_change")
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_person_circle_id"))
    op.drop_table("person")
    op.drop_table("circle")
