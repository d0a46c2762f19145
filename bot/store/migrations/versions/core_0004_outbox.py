"""Core: the retain outbox (memory.outbox), memories waiting for Hindsight; claimed by a lease per item.

Revision ID: core_0004
Revises: core_0003
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0004"
down_revision = "core_0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("bank_id", sa.String(128), primary_key=True),
        sa.Column("document_id", sa.String(200), primary_key=True),
        sa.Column("item", sa.Text, nullable=False),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text),
        sa.Column("claimed_until", sa.DateTime(timezone=True)),
        sa.Column("operation_id", sa.String(200)),
        sa.Column("origin", sa.String(200)),
    )


def downgrade() -> None:
    op.drop_table("outbox")
