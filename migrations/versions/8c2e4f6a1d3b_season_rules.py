"""A club circle's season rules, as its keeper kept them

Revision ID: 8c2e4f6a1d3b
Revises: 5a1d7c3e9f20
Create Date: 2026-12-04 20:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "8c2e4f6a1d3b"
down_revision = "5a1d7c3e9f20"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("circle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("season_rules", sa.String(length=400), nullable=True))


def downgrade():
    with op.batch_alter_table("circle", schema=None) as batch_op:
        batch_op.drop_column("season_rules")
