"""Core: the intake store — every incoming item, kept before any external call, one per delivery.

Revision ID: core_0003
Revises: core_0002
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0003"
down_revision = "core_0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "intake_items",
        sa.Column("intake_id", sa.String(32), primary_key=True),
        sa.Column("transport", sa.String(16), nullable=False),
        sa.Column("delivery_id", sa.String(128), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("incoming", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True)),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_intake_items_state", "intake_items", ["state", "received_at"])
    op.create_table(
        "intake_deliveries",
        sa.Column("transport", sa.String(16), primary_key=True),
        sa.Column("delivery_id", sa.String(128), primary_key=True),
        sa.Column("intake_id", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("intake_deliveries")
    op.drop_table("intake_items")
