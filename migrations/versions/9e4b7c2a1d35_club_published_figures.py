"""A club session read from a results file keeps what its club published: each traveller
line's matchpoints or IMPs, each pair's place, total, percentage and boards, as written

Revision ID: 9e4b7c2a1d35
Revises: 7a3f5c1e9d24
Create Date: 2026-12-02 10:00:00

"""

import sqlalchemy as sa
from alembic import op


revision = "9e4b7c2a1d35"
down_revision = "7a3f5c1e9d24"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("club_result") as batch_op:
        batch_op.add_column(sa.Column("published_ns", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("published_ew", sa.String(length=16), nullable=True))
    with op.batch_alter_table("club_pair") as batch_op:
        batch_op.add_column(sa.Column("published_place", sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column("published_total", sa.String(length=16), nullable=True))
        batch_op.add_column(
            sa.Column("published_percentage", sa.String(length=16), nullable=True)
        )
        batch_op.add_column(sa.Column("published_boards", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("club_pair") as batch_op:
        batch_op.drop_column("published_boards")
        batch_op.drop_column("published_percentage")
        batch_op.drop_column("published_total")
        batch_op.drop_column("published_place")
    with op.batch_alter_table("club_result") as batch_op:
        batch_op.drop_column("published_ew")
        batch_op.drop_column("published_ns")
