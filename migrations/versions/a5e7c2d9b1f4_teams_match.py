"""Bridge teams match: each table's result on each board

Revision ID: a5e7c2d9b1f4
Revises: c64d6ba4a3a7
Create Date: 2026-11-24 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a5e7c2d9b1f4'
down_revision = 'c64d6ba4a3a7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('teams_result',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('level', sa.Integer(), nullable=True),
    sa.Column('strain', sa.String(length=2), nullable=True),
    sa.Column('doubled', sa.Integer(), nullable=False),
    sa.Column('declarer', sa.String(length=1), nullable=True),
    sa.Column('tricks', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_teams_result_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_teams_result')),
    sa.UniqueConstraint('game_id', 'board', 'table', name=op.f('uq_teams_result_game_id'))
    )
    with op.batch_alter_table('teams_result', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_teams_result_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('teams_result', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_teams_result_game_id'))

    op.drop_table('teams_result')
