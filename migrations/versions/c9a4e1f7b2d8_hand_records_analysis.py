"""Hand records: each board's double-dummy table kept beside its deal once solved

Revision ID: c9a4e1f7b2d8
Revises: b3e8d5a1c7f2
Create Date: 2026-11-27 14:30:00

"""

import sqlalchemy as sa
from alembic import op


revision = "c9a4e1f7b2d8"
down_revision = "b3e8d5a1c7f2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("club_deal") as batch_op:
        batch_op.add_column(sa.Column("tricks", sa.String(length=20), nullable=True))


def downgrade():
    with op.batch_alter_table("club_deal") as batch_op:
        batch_op.drop_column("tricks")
