"""Room for a whole round taken back in the corrections log

Revision ID: 97af48e7ec81
Revises: 372d1774a1b2
Create Date: 2026-11-23 11:48:49.311548

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '97af48e7ec81'
down_revision = '372d1774a1b2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('correction', schema=None) as batch_op:
        batch_op.alter_column('old',
               existing_type=sa.VARCHAR(length=20),
               type_=sa.String(length=120),
               existing_nullable=True)
        batch_op.alter_column('new',
               existing_type=sa.VARCHAR(length=20),
               type_=sa.String(length=120),
               existing_nullable=True)



def downgrade():
    with op.batch_alter_table('correction', schema=None) as batch_op:
        batch_op.alter_column('new',
               existing_type=sa.String(length=120),
               type_=sa.VARCHAR(length=20),
               existing_nullable=True)
        batch_op.alter_column('old',
               existing_type=sa.String(length=120),
               type_=sa.VARCHAR(length=20),
               existing_nullable=True)

