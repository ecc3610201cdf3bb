"""A kept form's circle: a token is that circle's alone, as a game's is that game's

Revision ID: b7c3e5a9d2f4
Revises: 9d4f1b7e2c60
Create Date: 2026-12-03 22:10:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "b7c3e5a9d2f4"
down_revision = "9d4f1b7e2c60"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("sent_form", schema=None) as batch_op:
        batch_op.add_column(sa.Column("circle_id", sa.String(length=16), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_sent_form_circle_id_circle"),
            "circle",
            ["circle_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_index(batch_op.f("ix_sent_form_circle_id"), ["circle_id"], unique=False)


def downgrade():
    with op.batch_alter_table("sent_form", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sent_form_circle_id"))
        batch_op.drop_constraint(batch_op.f("fk_sent_form_circle_id_circle"), type_="foreignkey")
        batch_op.drop_column("circle_id")
