"""Core: conversation state — the transport inbox, open cards, pending edits, each person's conversation.

Revision ID: core_0002
Revises: core_0001
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0002"
down_revision = "core_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbox",
        sa.Column("channel", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("done", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_inbox_pending", "inbox", ["channel", "done", "received_at"])
    op.create_table(
        "cards",
        sa.Column("card_id", sa.String(32), primary_key=True),
        sa.Column("pack", sa.String(16), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_cards_status_user", "cards", ["status", "user_id"])
    op.create_table(
        "pending_edits",
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("card_id", sa.String(32), nullable=False),
        sa.Column("field", sa.String(64), nullable=False),
    )
    op.create_table(
        "conversations",
        sa.Column("subject", sa.String(200), primary_key=True),
        sa.Column("language", sa.String(8)),
        sa.Column("last_transport", sa.String(16)),
        sa.Column("whatsapp_number", sa.String(32)),
        sa.Column("last_inbound_at", sa.DateTime(timezone=True)),
        sa.Column("whatsapp_buttons", sa.Text),
        sa.Column("awaiting_followup_id", sa.String(64)),
        sa.Column("pending_voice", sa.Text),
    )
    op.create_table(
        "card_messages",
        sa.Column("chat", sa.String(64), primary_key=True),
        sa.Column("card_id", sa.String(32), primary_key=True),
        sa.Column("message_id", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    for table in ("card_messages", "conversations", "pending_edits", "cards", "inbox"):
        op.drop_table(table)
