"""One game row for every family: its family and its settings; the corrections log by number
and kind

Revision ID: b7d1f0c2a9e4
Revises: 83c3a0065521
Create Date: 2026-11-23 16:40:00

"""
import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7d1f0c2a9e4"
down_revision = "83c3a0065521"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("family", sa.String(length=20), nullable=False, server_default="ascenseur")
        )
        batch_op.add_column(sa.Column("settings", sa.JSON(), nullable=True))
    game = sa.table(
        "game",
        sa.column("id", sa.String),
        sa.column("preset", sa.String),
        sa.column("house_rules", sa.JSON),
        sa.column("first_dealer", sa.Integer),
        sa.column("settings", sa.JSON),
    )
    connection = op.get_bind()
    for row in connection.execute(sa.select(game.c.id, game.c.preset, game.c.house_rules, game.c.first_dealer)):
        house_rules = row.house_rules
        if isinstance(house_rules, str):  # SQLite hands JSON back as text to a bare table()
            house_rules = json.loads(house_rules)
        settings = {
            "preset": row.preset,
            "house_rules": house_rules or {},
            "first_dealer": row.first_dealer,
        }
        connection.execute(game.update().where(game.c.id == row.id).values(settings=settings))
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("family", server_default=None)
        batch_op.alter_column("settings", existing_type=sa.JSON(), nullable=False)
        batch_op.drop_column("preset")
        batch_op.drop_column("house_rules")
        batch_op.drop_column("first_dealer")
    with op.batch_alter_table("correction", schema=None) as batch_op:
        batch_op.alter_column("round_number", new_column_name="number", existing_type=sa.Integer(), existing_nullable=False)
        batch_op.alter_column("field", new_column_name="kind", existing_type=sa.String(length=20), existing_nullable=False)


def downgrade():
    # Before the table core, a game was an Ascenseur game: the other families' games go.
    others = "SELECT id FROM game WHERE family <> 'ascenseur'"
    for table in ("player", "correction", "browser_game"):
        op.execute(f"DELETE FROM {table} WHERE game_id IN ({others})")
    op.execute("DELETE FROM game WHERE family <> 'ascenseur'")
    with op.batch_alter_table("correction", schema=None) as batch_op:
        batch_op.alter_column("kind", new_column_name="field", existing_type=sa.String(length=20), existing_nullable=False)
        batch_op.alter_column("number", new_column_name="round_number", existing_type=sa.Integer(), existing_nullable=False)
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("preset", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("house_rules", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("first_dealer", sa.Integer(), nullable=True))
    game = sa.table(
        "game",
        sa.column("id", sa.String),
        sa.column("preset", sa.String),
        sa.column("house_rules", sa.JSON),
        sa.column("first_dealer", sa.Integer),
        sa.column("settings", sa.JSON),
    )
    connection = op.get_bind()
    for row in connection.execute(sa.select(game.c.id, game.c.settings)):
        settings = row.settings if isinstance(row.settings, dict) else json.loads(row.settings)
        connection.execute(
            game.update()
            .where(game.c.id == row.id)
            .values(
                preset=settings["preset"],
                house_rules=settings.get("house_rules", {}),
                first_dealer=settings["first_dealer"],
            )
        )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("preset", existing_type=sa.String(length=40), nullable=False)
        batch_op.alter_column("house_rules", existing_type=sa.JSON(), nullable=False)
        batch_op.alter_column("first_dealer", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("settings")
        batch_op.drop_column("family")
