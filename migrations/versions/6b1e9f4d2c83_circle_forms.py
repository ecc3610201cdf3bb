"""Circles: the new-circle form sent once, the circle's version, undo in its log, the people of each club pair

Revision ID: 6b1e9f4d2c83
Revises: 4c7e2a9d1b60
Create Date: 2026-11-28 11:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "6b1e9f4d2c83"
down_revision = "4c7e2a9d1b60"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("circle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
        batch_op.add_column(sa.Column("setup_nonce", sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_circle_setup_nonce"), ["setup_nonce"])
    with op.batch_alter_table("circle_change", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("undone", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("club_pair", schema=None) as batch_op:
        for column in ("first_person_id", "second_person_id"):
            batch_op.add_column(sa.Column(column, sa.Integer(), nullable=True))
            batch_op.create_foreign_key(
                batch_op.f(f"fk_club_pair_{column}_person"),
                "person",
                [column],
                ["id"],
                ondelete="SET NULL",
            )


def downgrade():
    with op.batch_alter_table("club_pair", schema=None) as batch_op:
        for column in ("first_person_id", "second_person_id"):
            batch_op.drop_constraint(batch_op.f(f"fk_club_pair_{column}_person"), type_="foreignkey")
            batch_op.drop_column(column)
    with op.batch_alter_table("circle_change", schema=None) as batch_op:
        batch_op.drop_column("undone")
    with op.batch_alter_table("circle", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_circle_setup_nonce"), type_="unique")
        batch_op.drop_column("setup_nonce")
        batch_op.drop_column("version")
