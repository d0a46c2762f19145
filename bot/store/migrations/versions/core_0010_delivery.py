"""Core: delivery — intake items carry their owner and lease; the reply outbox keeps replies until delivered.

Revision ID: core_0010
Revises: core_0009
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0010"
down_revision = "core_0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("intake_items") as batch:
        batch.add_column(sa.Column("owner", sa.String(64)))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True)))
    op.create_table(
        "reply_outbox",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("transport", sa.String(16), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("reply", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True)),
        sa.Column("owner", sa.String(64)),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("provider_ids", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_reply_outbox_state", "reply_outbox", ["state", "next_attempt_at"])
    op.create_table(
        "reply_receipts",
        sa.Column("provider_id", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reply_receipts")
    op.drop_table("reply_outbox")
    with op.batch_alter_table("intake_items") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("owner")
