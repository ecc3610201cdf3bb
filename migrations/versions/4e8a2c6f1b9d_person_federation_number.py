"""A person's federation and their number there, and a club pair's players' numbers as a file gave them

Revision ID: 4e8a2c6f1b9d
Revises: b7c3e5a9d2f4
Create Date: 2026-12-04 06:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "4e8a2c6f1b9d"
down_revision = "b7c3e5a9d2f4"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.add_column(sa.Column("federation", sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column("federation_number", sa.String(length=20), nullable=True))
    with op.batch_alter_table("club_pair", schema=None) as batch_op:
        batch_op.add_column(sa.Column("first_number", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("second_number", sa.String(length=20), nullable=True))


def downgrade():
    with op.batch_alter_table("club_pair", schema=None) as batch_op:
        batch_op.drop_column("second_number")
        batch_op.drop_column("first_number")
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.drop_column("federation_number")
        batch_op.drop_column("federation")
