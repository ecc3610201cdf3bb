"""Club sections: sessions played as one field

Revision ID: 4b8d6e2f1a57
Revises: 35a90b5d0820
Create Date: 2026-12-02 04:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4b8d6e2f1a57'
down_revision = '35a90b5d0820'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('club_field',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('across', sa.Boolean(), server_default=sa.true(), nullable=False),
    sa.Column('overall', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_club_field'))
    )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('field_id', sa.String(length=16), nullable=True))
        batch_op.create_index(batch_op.f('ix_game_field_id'), ['field_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_game_field_id_club_field'), 'club_field', ['field_id'], ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_field_id_club_field'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_field_id'))
        batch_op.drop_column('field_id')

    op.drop_table('club_field')
