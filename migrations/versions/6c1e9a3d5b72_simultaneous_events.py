"""A field played as a simultaneous across clubs: its name, date, deals and links; every field's own link

Revision ID: 6c1e9a3d5b72
Revises: 4b8d6e2f1a57
Create Date: 2026-12-02 09:30:00.000000

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6c1e9a3d5b72'
down_revision = '4b8d6e2f1a57'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('club_field', schema=None) as batch_op:
        batch_op.add_column(sa.Column('simultaneous', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('ended', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('name', sa.String(length=80), server_default='', nullable=False))
        batch_op.add_column(sa.Column('played_on', sa.Date(), nullable=True))
        batch_op.add_column(sa.Column('scoring', sa.String(length=16), server_default='', nullable=False))
        batch_op.add_column(sa.Column('deals', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('organiser_token', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('join_token', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('setup_nonce', sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_club_field_setup_nonce'), ['setup_nonce'])
    # Every field has a link of its own, for another phone of its director's.
    fields = sa.table('club_field', sa.column('id', sa.String), sa.column('organiser_token', sa.String))
    connection = op.get_bind()
    for (field_id,) in connection.execute(sa.select(fields.c.id)).all():
        connection.execute(
            fields.update()
            .where(fields.c.id == field_id)
            .values(organiser_token=secrets.token_urlsafe(16))
        )


def downgrade():
    with op.batch_alter_table('club_field', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_club_field_setup_nonce'), type_='unique')
        batch_op.drop_column('setup_nonce')
        batch_op.drop_column('join_token')
        batch_op.drop_column('organiser_token')
        batch_op.drop_column('deals')
        batch_op.drop_column('scoring')
        batch_op.drop_column('played_on')
        batch_op.drop_column('name')
        batch_op.drop_column('ended')
        batch_op.drop_column('simultaneous')
