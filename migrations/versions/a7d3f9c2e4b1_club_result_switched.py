"""Club results: whether the pairs sat the other way round (an arrow switch)

Revision ID: a7d3f9c2e4b1
Revises: c9a4e1f7b2d8
Create Date: 2026-11-27 17:30:00

"""

import sqlalchemy as sa
from alembic import op


revision = "a7d3f9c2e4b1"
down_revision = "c9a4e1f7b2d8"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("club_result") as batch_op:
        batch_op.add_column(
            sa.Column("switched", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table("club_result") as batch_op:
        batch_op.drop_column("switched")
