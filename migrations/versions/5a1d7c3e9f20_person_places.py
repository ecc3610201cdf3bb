"""A person's place taken by someone of another circle, and how a person who left is shown

Revision ID: 5a1d7c3e9f20
Revises: 4e8a2c6f1b9d
Create Date: 2026-12-04 20:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "5a1d7c3e9f20"
down_revision = "4e8a2c6f1b9d"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.add_column(sa.Column("home_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("left_as", sa.String(length=10), nullable=True))
        batch_op.create_index(batch_op.f("ix_person_home_id"), ["home_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_person_home_id_person"), "person", ["home_id"], ["id"], ondelete="SET NULL"
        )


def downgrade():
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_person_home_id_person"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_person_home_id"))
        batch_op.drop_column("left_as")
        batch_op.drop_column("home_id")
